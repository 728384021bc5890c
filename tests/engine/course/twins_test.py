"""`course twins NN` end to end: every lesson's twins under the Python that has PyTorch here
(Debian's python3-torch), a Python without PyTorch, and no Python at all. The twins are
checked against the lessons by the python_twins test; here what matters is what the command
shows the learner, and that it records nothing.

    twins_test.py COURSE PYTHON_WITH_TORCH LESSON_NUMBER...
"""

import concurrent.futures
import os
import subprocess
import sys
import tempfile

SKIP = 77


def course(program, args, python, progress):
    env = dict(os.environ, MPS_COURSE_PYTHON=python, MPS_COURSE_PROGRESS=progress, NO_COLOR="1", COLUMNS="60")
    done = subprocess.run([program] + args, capture_output=True, text=True, env=env, timeout=600)
    return done.returncode, done.stdout + done.stderr


def words(text):
    """The text with its line breaks as spaces: what it says, however the terminal wrapped it."""
    return " ".join(text.split())


def expect(failures, what, condition, output):
    if not condition:
        failures.append(f"{what}; it printed:\n{output}")


def mps_here(python):
    probe = "import torch; print(torch.backends.mps.is_available())"
    return subprocess.run([python, "-c", probe], capture_output=True, text=True).stdout.strip() == "True"


def main():
    program, python, lessons = sys.argv[1], sys.argv[2], sys.argv[3:]
    if subprocess.run([python, "-c", "import torch"], capture_output=True).returncode != 0:
        print(f"SKIPPED: {python} cannot import torch (Debian: sudo apt-get install python3-torch); "
              f"course twins was not run against a real PyTorch.")
        return SKIP
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        progress = os.path.join(scratch, "progress.json")
        # Two at a time: most of each run is Python importing torch.
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            runs = list(pool.map(lambda lesson: course(program, ["twins", lesson], python, progress), lessons))
        for lesson, (status, output) in zip(lessons, runs):
            said = words(output)
            expect(failures, f"twins {lesson} ended with {status}", status == 0, output)
            expect(failures, f"twins {lesson} did not say it verifies nothing", "This verified nothing;" in said, output)
            if sys.platform.startswith("linux"):  # this computer's twin among the simulated machines
                expect(failures, f"twins {lesson} compared with another machine than linux-x86_64",
                       "linux-x86_64, the simulated machine closest to this computer" in said, output)
                # Every twin prints the documented output or differs as its mark says (as the
                # python_twins test requires), and the command counts them so.
                expect(failures, f"twins {lesson} found a difference the lesson does not explain",
                       " 0 for no reason the lesson gives" in said, output)
            if lesson == "05" and not mps_here(python):  # a requires="mps" cell's twin, without MPS
                expect(failures, "twins 05 did not mark warm_up as requiring mps, or ran it without MPS",
                       "┌ warm_up  requires mps\n" in output and
                       "no mps device here: this cell needs MPS" in output.split("┌ warm_up", 1)[1].split("┌", 1)[0], output)
            print(f"lesson {lesson}: " + words(output.split("\n\n")[-1]))
        expect(failures, "twins recorded progress", not os.path.exists(progress), "")

        status, output = course(program, ["twins", "02", "--machine", "m1-8gb"], python, progress)
        expect(failures, "--machine m1-8gb was not compared with m1-8gb",
               status == 0 and "documented for m1-8gb" in output and "closest" not in words(output), output)

        without_torch = os.path.join(scratch, "python-without-torch")
        with open(without_torch, "w") as script:
            script.write(f'#!/bin/sh\nexec "{sys.executable}" -I -S "$@"\n')  # no site-packages: no torch
        os.chmod(without_torch, 0o755)
        status, output = course(program, ["twins", "02"], without_torch, progress)
        expect(failures, "a Python without PyTorch was not named as such",
               status == 1 and "no PyTorch found" in words(output) and "cannot import torch" in words(output)
               and "MPS_COURSE_PYTHON=" in output, output)

        status, output = course(program, ["twins", "02"], os.path.join(scratch, "no-such-python"), progress)
        expect(failures, "a missing Python was not reported", status == 1 and "no Python to run the twins" in words(output),
               output)
        expect(failures, "twins recorded progress", not os.path.exists(progress), "")
    for failure in failures:
        print("FAILED: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
