#!/usr/bin/env python3
"""Validates every notebook the site exported with nbformat (Debian's python3-nbformat), and
checks that each holds its lesson: Markdown and code cells, and outputs of the chosen machine.

Usage: validate_notebooks.py DIRECTORY MACHINE
Exits 77 with a line starting "SKIPPED:" when nbformat is not installed.
"""

import pathlib
import sys

SKIP = 77


def main() -> int:
    try:
        import nbformat
    except ImportError:
        print("SKIPPED: python3-nbformat is not installed (sudo apt-get install python3-nbformat)")
        return SKIP
    directory, machine = pathlib.Path(sys.argv[1]), sys.argv[2]
    notebooks = sorted(directory.glob("*.ipynb"))
    if not notebooks:
        print(f"no notebooks in {directory}")
        return 1
    problems = []
    for path in notebooks:
        notebook = nbformat.read(path, as_version=4)
        try:
            nbformat.validate(notebook)
        except nbformat.ValidationError as error:
            problems.append(f"{path.name}: {error.message}")
            continue
        kinds = {cell.cell_type for cell in notebook.cells}
        outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
        if kinds != {"markdown", "code"}:
            problems.append(f"{path.name}: cell types {sorted(kinds)}, expected markdown and code")
        if not outputs:
            problems.append(f"{path.name}: no code cell has an output")
        if notebook.metadata.get("mps_course", {}).get("machine") != machine:
            problems.append(f"{path.name}: outputs are not those of {machine}")
        print(f"{path.name}: valid nbformat {notebook.nbformat}.{notebook.nbformat_minor}, "
              f"{len(notebook.cells)} cells, {len(outputs)} outputs")
    for problem in problems:
        print("FAILED:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
