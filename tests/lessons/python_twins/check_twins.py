"""Runs every Python twin of the lessons under real PyTorch and compares what each prints with
its cell's documented output for the reference machine (linux-x86_64: PyTorch's Linux wheel,
which is what runs here).

    check_twins.py TWIN_CASES MACHINE LESSON.cpp...
    check_twins.py --capture DIR TWIN_CASES MACHINE LESSON.cpp...

With --capture, what a release printed is read from its capture (tests/data/pytorch-2.11, made
by capture_pytorch.py on a machine that has it) instead of run: the same verdicts, for a release
this computer does not have. A twin changed since its capture fails, until it is captured again.

TWIN_CASES is the twin_cases program, which reads the lessons through the course's parser. Each twin runs in a child forked after `import torch`, so it
starts like the cell it mirrors: a fresh process with PyTorch's default seed and no warning
shown yet. Its stdout and stderr are read together, in order, as a terminal shows them.

Verdicts: a twin without marks must print exactly the documented output. A twin marked
`differs` must run to the end but print something else (a mark that no longer holds is an
error too), unless it carries `before="X.Y"` and the installed PyTorch is that release or newer,
in which case it must match. Exit status: 0 all good, 1 a failure, 77 PyTorch is missing (the
test is skipped). If this interpreter lacks PyTorch, those named in TUTOR_TORCH_PYTHONS are
tried in turn.
"""

import difflib
import json
import os
import sys

# The one runner of twins, which `course twins NN` uses too.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "engine", "course", "python"))
from twin_runner import run_in_child  # noqa: E402

SKIP = 77


def find_torch():
    try:
        import torch  # noqa: F401  (imported once; every twin's child inherits it)
        return torch
    except ImportError:
        pass
    for candidate in os.environ.get("TUTOR_TORCH_PYTHONS", "").split(os.pathsep):
        if candidate and os.path.realpath(candidate) != os.path.realpath(sys.executable) and os.path.exists(candidate):
            env = dict(os.environ, TUTOR_TORCH_PYTHONS="")
            os.execve(candidate, [candidate] + sys.argv, env)
    print("SKIPPED: PyTorch for Python is not installed (Debian: sudo apt-get install python3-torch); "
          "the Python twins were not checked.")
    sys.exit(SKIP)


def release(version):
    """(1, 13) from '1.13.0a0', (2, 10) from '2.10'."""
    parts = version.split("+")[0].split(".")
    return int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or 0)


def diff(expected, printed, limit=12, width=160):
    """The line diff, long lines cut and long diffs shortened: enough to see what differs."""
    lines = [line for line in difflib.ndiff(expected.splitlines(), printed.splitlines()) if not line.startswith("?")]
    shown = ["    " + (line if len(line) <= width else line[:width] + " ...") for line in lines[:limit]]
    if len(lines) > limit:
        shown.append(f"    ... ({len(lines) - limit} more lines)")
    return "\n".join(shown)


def check_lesson(version, cases, run):
    """Prints each twin's verdict; returns the failures. run(code) is what the twin prints and
    its exit status under PyTorch `version`, or None where a capture has no such twin."""
    installed = release(version)
    where = cases["lesson"]
    print(f"{where}: against the output documented for {cases['machine']}")
    failures, matched, marked = [], 0, 0
    for cell in cases["cells"]:
        twin = cell["twin"]
        if twin is None:
            failures.append(f"{where}:{cell['line']}: cell '{cell['cell']}' has no Python twin; add a "
                            f"// %% [python] block after its outputs")
            continue
        label = f"{where}:{twin['line']}: twin of '{cell['cell']}'"
        outcome = run(twin["code"])
        if outcome is None:
            failures.append(f"{label} changed since PyTorch {version} was captured: capture it again "
                            f"(tests/lessons/python_twins/capture_pytorch.py)")
            continue
        printed, status = outcome
        if status != 0:
            failures.append(f"{label} ended with status {status}:\n{printed}")
            continue
        expected_to_differ = bool(twin["differs"]) and (not twin["before"] or installed < release(twin["before"]))
        same = printed == cell["expected"]
        if same and not expected_to_differ:
            matched += 1
            print(f"  ok        {cell['cell']}")
        elif not same and expected_to_differ:
            marked += 1
            print(f"  differs   {cell['cell']}: {twin['differs']}")
            print(diff(cell["expected"], printed))
        elif same:
            failures.append(f"{label} is marked as differing ({twin['differs']}) but prints exactly the "
                            f"documented output under PyTorch {version}; remove the mark")
        else:
            failures.append(f"{label} printed something other than the documented output "
                            f"(- documented, + printed):\n{diff(cell['expected'], printed)}")
    print(f"  {matched} twins match exactly, {marked} differ as marked, {len(failures)} failed")
    return failures, matched, marked


def captured_runs(directory):
    """The PyTorch version of a capture, and run(code) that looks a twin up in it."""
    with open(os.path.join(directory, "twins.json")) as file:
        capture = json.load(file)
    printed = {cell["code"]: (cell["printed"], cell["status"])
               for cells in capture["lessons"].values() for cell in cells.values()}
    return capture["about"]["torch"], printed.get


def main():
    import subprocess
    args = sys.argv[1:]
    if args[:1] == ["--capture"]:
        capture = args[1]
        version, run = captured_runs(capture)
        args = args[2:]
        print(f"Python twins as PyTorch {version} printed them (captured in {capture})")
    else:
        torch = find_torch()
        version, run = torch.__version__, run_in_child
        print(f"Python twins under PyTorch {version}")
    tool, machine, lessons = args[0], args[1], args[2:]
    failures, matched, marked = [], 0, 0
    listing = subprocess.run([tool, machine] + lessons, capture_output=True, text=True)
    if listing.returncode != 0:
        print("FAILED: " + listing.stderr.strip())
        return 1
    for cases in json.loads(listing.stdout):
        lesson_failures, lesson_matched, lesson_marked = check_lesson(version, cases, run)
        failures += lesson_failures
        matched += lesson_matched
        marked += lesson_marked
    for failure in failures:
        print("FAILED: " + failure)
    print(f"{len(lessons)} lessons: {matched} twins match exactly, {marked} differ as marked, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
