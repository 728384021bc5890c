"""Runs the lessons' Python twins under a real PyTorch, each as a fresh script would run.

`course twins NN` runs this with the learner's own Python:

    twin_runner.py CODE...

It imports torch once, then runs each CODE in a child process forked after the import, so
every twin starts like the cell it mirrors (PyTorch's default seed, no warning shown yet) and
one twin's state never leaks into the next. It prints one JSON object after the line
RESULTS_FOLLOW: the versions, whether MPS is usable, and for each CODE what it printed (stdout
and stderr together, in order) and its exit status. Exit status 77 means no PyTorch could be
imported; what is wrong is on stderr.

The course's tests run the same twins through run_in_child (tests/lessons/python_twins).
"""

import json
import os
import platform
import signal
import sys
import traceback

NO_TORCH = 77
RESULTS_FOLLOW = "--- twin results ---"
TWIN_TIME_LIMIT_S = 120  # a twin is a few lines; one still running after this is stopped


def run_in_child(code, time_limit_s=None):
    """What `code` prints when run as a fresh script, and its exit status (124 if it ran past
    `time_limit_s` and was stopped)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.dup2(write_end, 1)
        os.dup2(write_end, 2)
        sys.stdout = os.fdopen(1, "w", buffering=1)
        sys.stderr = sys.stdout  # one stream: the order a terminal would show
        if time_limit_s:
            signal.signal(signal.SIGALRM, lambda *_: os._exit(124))
            signal.alarm(time_limit_s)
        status = 0
        try:
            exec(compile(code, "<twin>", "exec"), {"__name__": "__main__"})
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 1
        except BaseException:  # an uncaught error ends a script with its traceback
            traceback.print_exc()
            status = 1
        sys.stdout.flush()
        os._exit(status)
    os.close(write_end)
    chunks = []
    with os.fdopen(read_end, "rb") as pipe:
        for chunk in iter(lambda: pipe.read(65536), b""):
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    return b"".join(chunks).decode("utf-8", "replace"), os.waitstatus_to_exitcode(status)


def mps_usable(torch):
    backends = getattr(torch.backends, "mps", None)
    return bool(backends and backends.is_available())


def main(codes):
    try:
        import torch
    except ImportError as e:
        print(f"{sys.executable} (Python {platform.python_version()}) cannot import torch: {e}", file=sys.stderr)
        return NO_TORCH
    results = [dict(zip(("printed", "status"), run_in_child(code, TWIN_TIME_LIMIT_S))) for code in codes]
    print(RESULTS_FOLLOW)
    print(json.dumps({"torch": torch.__version__, "python": platform.python_version(),
                      "executable": sys.executable, "system": platform.platform(),
                      "mps": mps_usable(torch), "results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
