"""torch:: means LibTorch: every name the lessons and labs spell under torch:: (or under
torch::nn::functional, as F::) is one the conformance program spells too, and that program is
built against real LibTorch (README.md). A name the engine has but LibTorch lacks belongs under
sim:: (the emulator's controls) or py:: (Python's own API), never under torch::.

    names_test.py CONFORMANCE.cpp SOURCE_DIR

It reads every lesson and lab file under SOURCE_DIR (found when it runs, so that a new file is
checked without configuring the build again), all but the learner's own labs/NN_topic/lab.cpp.
"""

import pathlib
import re
import sys

LEARNER_FILE = re.compile(r"labs/[0-9][0-9]_[a-z0-9_]+/lab\.cpp$")


def learner_code(root):
    """The lessons' and labs' C++ files and the labs' hints, without the learner's own files."""
    files = []
    for folder, patterns in (("lessons", ("*.cpp", "*.h")), ("labs", ("*.cpp", "*.h", "*.md"))):
        for pattern in patterns:
            files += (root / folder).rglob(pattern)
    return sorted(path for path in files if not LEARNER_FILE.search(path.relative_to(root).as_posix()))

NAME = re.compile(r"(?<!::)\b(torch|F)::((?:[A-Za-z_][A-Za-z_0-9]*::)*[A-Za-z_][A-Za-z_0-9]*)")


def names_in(text):
    """The qualified names in C++ source, with F:: read as torch::nn::functional::."""
    found = set()
    for space, name in NAME.findall(text):
        found.add(("torch::nn::functional::" if space == "F" else "torch::") + name)
    return found


def main():
    with open(sys.argv[1]) as source:
        reference = names_in(source.read())
    files = learner_code(pathlib.Path(sys.argv[2]))
    failures = 0
    for path in files:
        with open(path) as source:
            for number, line in enumerate(source, 1):
                for name in sorted(names_in(line)):
                    if name not in reference and not any(known.startswith(name + "::") for known in reference):
                        print(f"{path}:{number}: {name} is not a LibTorch name the conformance program checks; "
                              f"spell it as LibTorch does, or under sim:: or py::")
                        failures += 1
    print(f"{len(files)} files: {failures} names under torch:: that LibTorch lacks" if failures else
          f"{len(files)} files spell under torch:: only names of LibTorch ({len(reference)} checked)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
