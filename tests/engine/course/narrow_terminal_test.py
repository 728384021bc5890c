"""Every listing and help text a learner reads fits a narrow terminal: run at COLUMNS=60, no line
of what the course's programs print is wider than 60 columns. So does every lesson, shown as a
notebook by its program (each lesson* beside LESSON), on a documented machine and on one whose
differences from the documented outputs it shows, and a lab's first hint.

    narrow_terminal_test.py ROOT COURSE QUIZ LESSON PLANNER_CONFIG

The programs run from ROOT (the course's folder) under paths relative to it, as a learner types
them there: the commands they suggest repeat those paths.
"""

import os
import subprocess
import sys
import tempfile

WIDTH = 60


def main():
    root = sys.argv[1]
    course, quiz, lesson, config = (os.path.relpath(path, root) for path in sys.argv[2:6])
    commands = [
        [course, "--help"], [course, "list"], [course, "plan", config], [course, "plan", config, "--machine", "m1-8gb"],
        [course, "twins", "--help"], [quiz, "--help"], [quiz, "list"], [quiz, "progress"], [course, "quiz", "progress"],
        [lesson, "--help"], [lesson, "--list-machines"], [course, "hint", "02"],
    ]
    lessons = os.path.dirname(lesson)
    programs = [os.path.join(lessons, name) for name in sorted(os.listdir(os.path.join(root, lessons)))
                if name.startswith("lesson") and os.access(os.path.join(root, lessons, name), os.X_OK)]
    # On a machine the lessons document no output for, each cell also shows its differences from
    # the closest documented machine's output.
    commands += [[program] for program in programs] + [[program, "--machine", "m2-16gb"] for program in programs]
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, COLUMNS=str(WIDTH), NO_COLOR="1", MPS_COURSE_PROGRESS=os.path.join(scratch, "p.json"))
        for command in commands:
            done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=root, timeout=120)
            shown = " ".join([os.path.basename(command[0])] + command[1:])
            wide = [line for line in done.stdout.splitlines() if len(line) > WIDTH]
            if done.returncode != 0 or wide:
                failures += 1
                print(f"FAILED: {shown} (exit {done.returncode}) prints {len(wide)} lines wider than {WIDTH} columns:")
                print("\n".join("  " + line for line in wide[:5]) + done.stderr)
            else:
                print(f"ok: {shown}, {len(done.stdout.splitlines())} lines")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
