"""The conformance program built against the engine must print what it printed built against
LibTorch (tests/data/libtorch-2.11/conformance.txt), line for line, but for the lines that
differences.txt names with a reason; a line named there that no longer differs is an error too,
so the list stays true. A line the recording does not have yet (added to conformance.cpp since)
is an error unless differences.txt lists it as awaiting the next recording.

    compare.py PROGRAM REFERENCE DIFFERENCES
"""

import subprocess
import sys


def labelled(text):
    """{label: line} for the program's lines ("label: value"), comments left out."""
    lines = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            lines[line.split(": ", 1)[0]] = line
    return lines


def main():
    program, reference_file, differences_file = sys.argv[1:4]
    engine = labelled(subprocess.run([program], capture_output=True, text=True, check=True).stdout)
    with open(reference_file) as file:
        reference = labelled(file.read())
    with open(differences_file) as file:
        reasons = {line.split(": ", 1)[0]: line for line in file.read().splitlines() if line and not line.startswith("#")}
    failures = []
    for label, expected in reference.items():
        printed = engine.get(label, f"{label}: (not printed by the engine)")
        if printed == expected and label in reasons:
            failures.append(f"'{label}' is listed as a difference but the engine prints what LibTorch printed; remove it")
        elif printed != expected and label not in reasons:
            failures.append(f"'{label}' differs from LibTorch:\n  LibTorch: {expected}\n  engine:   {printed}")
    for label in engine.keys() - reference.keys():
        if label not in reasons:
            failures.append(f"'{label}' is printed by the engine only: record LibTorch's output again (README.md)")
    for label in reasons.keys() - engine.keys() - reference.keys():
        failures.append(f"'{label}' is listed in the differences but printed by neither")
    for failure in failures:
        print("FAILED: " + failure)
    same = sum(1 for label in reference if engine.get(label) == reference[label])
    print(f"{same} of {len(reference)} lines as LibTorch printed them, {len(reference) - same} differences listed "
          f"with their reasons, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
