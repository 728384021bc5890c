"""Rewrites the documented outputs (// %% [output] blocks) of lessons whose code now prints
something else, after a deliberate change to the engine: each lesson runs on every documented
machine (`--machine NAME --outputs FILE`), and each block that no longer matches gets what its
machines print now. The lesson program itself says which block it compared with and where that
block sits in the source (`documented_block`), so this tool parses no lesson. Review the diff
before committing it: every changed line is a claim the course makes.

A block documented for several machines is rewritten only when all of those whose output changed
print the same new text; otherwise the tool names the cell and leaves the block for a person to
split. Run the lessons' tests afterwards: they say whether every machine now matches.

  python3 tests/tools/update_documented_outputs.py build [lesson05_1 lesson08_2 ...]"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile

DOCUMENTED = ["m3-max-64gb", "m1-8gb", "intel-mac-macos12.0", "m2-max-macos13.7",
              "linux-x86_64", "rosetta-x86_64"]


def runs_of(build, executable):
    """{(source, marker line, line count): {machine: (cell, new text or None)}} over every
    documented machine; None where the cell still prints its documented output."""
    printed = {}
    for machine in DOCUMENTED:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            # exits 1 when an output differs: that is what this tool is for
            subprocess.run([str(build / "lessons" / executable), "--machine", machine,
                            "--outputs", out.name], stdout=subprocess.DEVNULL)
            try:
                run = json.load(open(out.name))
            except json.JSONDecodeError:
                sys.exit(f"{executable} --machine {machine} wrote no outputs; run it to see why")
        for cell in run["cells"]:
            block = cell.get("documented_block")
            if block is None:
                continue
            key = (run["source"], block["marker_line"], block["lines"])
            text = None if cell["matches"] else cell["output"]
            printed.setdefault(key, {})[machine] = (cell["name"], text)
    return printed


def update(build, executable):
    changed = 0
    sources = {}
    # From the end of each file: the line numbers of the blocks above stay valid.
    for (source, marker, count), results in sorted(runs_of(build, executable).items(),
                                                   key=lambda item: -item[0][1]):
        # A machine that still matches may be compared with another text (a cell that needs MPS
        # shows one standard line on machines without it): only the changed ones decide.
        texts = {text for _, text in results.values() if text is not None}
        if not texts:
            continue
        name = next(iter(results.values()))[0]
        if len(texts) > 1:
            print(f"{source}:{marker}: cell {name}: its machines now print different outputs "
                  f"({', '.join(sorted(results))}); split the block by hand")
            continue
        lines = sources.setdefault(source, pathlib.Path(source).read_text().split("\n"))
        new = texts.pop().rstrip("\n").split("\n")
        lines[marker:marker + count] = ["//" if not line else "// " + line for line in new]
        changed += 1
        print(f"{source}:{marker}: cell {name}: rewritten")
    for source, lines in sources.items():
        pathlib.Path(source).write_text("\n".join(lines))
    return changed


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = pathlib.Path(sys.argv[1]).resolve()
    executables = sys.argv[2:] or sorted(
        p.name for p in (build / "lessons").iterdir() if re.fullmatch(r"lesson[0-9_]+", p.name))
    total = sum(update(build, e) for e in executables)
    print(f"{total} documented outputs rewritten")


if __name__ == "__main__":
    main()
