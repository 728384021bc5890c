"""Rewrites the documented outputs (// %% [output] blocks) of lessons whose code now prints
something else, after a deliberate change to the engine: each lesson runs on every documented
machine (`--machine NAME --outputs FILE`), and each block that no longer matches gets what its
machines print now. Review the diff before committing it: every changed line is a claim the
course makes.

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

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTED = ["m3-max-64gb", "m1-8gb", "intel-mac-macos12.0", "m2-max-macos13.7",
              "linux-x86_64", "rosetta-x86_64"]
CELL = re.compile(r"^// %% ([a-z0-9_]+)(?:\s.*)?$")
OUTPUT = re.compile(r'^// %% \[output\](?:\s+machine="([^"]*)")?\s*$')


def source_of(executable):
    """lesson05_1 -> lessons/05_*/05_1_*.cpp; lesson03 -> lessons/03_*.cpp."""
    number = executable.removeprefix("lesson")
    pattern = f"*/{number}_*.cpp" if "_" in number else f"{number}_*.cpp"
    found = sorted((ROOT / "lessons").glob(pattern))
    if len(found) != 1:
        sys.exit(f"{executable}: expected one source for it in lessons/, found {len(found)}")
    return found[0]


def blocks_of(lines):
    """{cell: [(machines or None, first line index, end index)]} of a lesson source."""
    blocks, cell, i = {}, None, 0
    while i < len(lines):
        if CELL.match(lines[i]):
            cell = CELL.match(lines[i]).group(1)
        match = OUTPUT.match(lines[i])
        if match:
            end = i + 1
            while end < len(lines) and (lines[end] == "//" or lines[end].startswith("// ")) \
                    and not lines[end].startswith("// %%"):
                end += 1
            machines = tuple(match.group(1).split(",")) if match.group(1) else None
            blocks.setdefault(cell, []).append((machines, i + 1, end))
            i = end
            continue
        i += 1
    return blocks


def block_for(blocks, machine):
    default = None
    for block in blocks:
        if block[0] is None:
            default = block
        elif machine in block[0]:
            return block
    return default


def update(build, executable):
    path = source_of(executable)
    lines = path.read_text().split("\n")
    blocks = blocks_of(lines)
    printed = {}  # (block start) -> {machine: new text or None when it still matches}
    for machine in DOCUMENTED:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            # exits 1 when an output differs: that is what this tool is for
            subprocess.run([str(build / "lessons" / executable), "--machine", machine,
                            "--outputs", out.name], stdout=subprocess.DEVNULL)
            try:
                cells = json.load(open(out.name))["cells"]
            except (json.JSONDecodeError, KeyError):
                sys.exit(f"{executable} --machine {machine} wrote no outputs; run it to see why")
        for cell in cells:
            if not cell["documented"] or cell["name"] not in blocks:
                continue
            block = block_for(blocks[cell["name"]], machine)
            if block is None:
                continue
            text = None if cell["matches"] else cell["output"]
            printed.setdefault(block, {})[machine] = (cell["name"], text)
    changed = 0
    for block in sorted(printed, key=lambda b: -b[1]):  # from the end: indices stay valid
        results = printed[block]
        # A machine that still matches may be compared with another text (a cell that needs MPS
        # shows one standard line on machines without it): only the changed ones decide.
        texts = {text for _, text in results.values() if text is not None}
        if not texts:
            continue
        name = next(iter(results.values()))[0]
        if len(texts) > 1:
            print(f"{path.relative_to(ROOT)}:{block[1]}: cell {name}: its machines now print "
                  f"different outputs ({', '.join(sorted(results))}); split the block by hand")
            continue
        new = texts.pop().rstrip("\n").split("\n")
        lines[block[1]:block[2]] = ["//" if not line else "// " + line for line in new]
        changed += 1
        print(f"{path.relative_to(ROOT)}:{block[1]}: cell {name}: rewritten")
    if changed:
        path.write_text("\n".join(lines))
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
