"""How long a new learner waits for lesson 1: clones the course into a fresh folder, runs ./setup
there (the packages already installed) and reports when each of its steps began and when lesson
1's heading was on screen; then stops setup, which would go on to build the rest of the course.

    python3 tests/tools/time_to_first_lesson.py [--keep]

The target (README.md): lesson 1 on screen within 30 s on a 2-core machine.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

COURSE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the clone, and let setup finish")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="time-to-lesson-1-")
    clone = os.path.join(folder, "course")
    subprocess.run(["git", "clone", "--quiet", COURSE, clone], check=True)
    start = time.monotonic()
    setup = subprocess.Popen(["./setup"], cwd=clone, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, env=dict(os.environ, NO_COLOR="1"), start_new_session=True)
    on_screen = None
    for line in setup.stdout:
        elapsed = time.monotonic() - start
        if line.startswith("==> "):
            print(f"{elapsed:6.1f} s  {line.rstrip()}", flush=True)
        if on_screen is None and line.startswith("Lesson 1 · "):
            on_screen = elapsed
            print(f"{elapsed:6.1f} s  lesson 1 on screen: {line.rstrip()}", flush=True)
        if on_screen is not None and line.startswith("==> Building the rest") and not args.keep:
            os.killpg(setup.pid, signal.SIGTERM)
            break
    setup.wait()
    if not args.keep:
        shutil.rmtree(folder)
    if on_screen is None:
        sys.exit("lesson 1 never appeared")
    print(f"lesson 1 on screen {on_screen:.1f} s after ./setup started, on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
