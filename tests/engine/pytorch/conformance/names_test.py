"""torch:: means LibTorch: every name the lessons and labs spell under torch:: (or under
torch::nn::functional, as F::) is one the conformance program spells too, and that program is
built against real LibTorch (README.md). A name the engine has but LibTorch lacks belongs under
sim:: (the emulator's controls) or py:: (Python's own API), never under torch::.

    names_test.py CONFORMANCE.cpp FILE...
"""

import re
import sys

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
    failures = 0
    for path in sys.argv[2:]:
        with open(path) as source:
            for number, line in enumerate(source, 1):
                for name in sorted(names_in(line)):
                    if name not in reference and not any(known.startswith(name + "::") for known in reference):
                        print(f"{path}:{number}: {name} is not a LibTorch name the conformance program checks; "
                              f"spell it as LibTorch does, or under sim:: or py::")
                        failures += 1
    print(f"{len(sys.argv) - 2} files: {failures} names under torch:: that LibTorch lacks" if failures else
          f"{len(sys.argv) - 2} files spell under torch:: only names of LibTorch ({len(reference)} checked)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
