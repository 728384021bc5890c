"""Records what a real PyTorch prints for every lesson's Python twins and for the probes of
pytorch_probes.py, into a folder of tests/data (tests/data/pytorch-2.11/ for PyTorch 2.11), so
that CI can compare the engine with a release it cannot install (compare_captures.py).

    capture_pytorch.py TWINS.json OUTPUT_DIR

TWINS.json is every lesson's twins as the course's parser reads them, which the build writes
(cmake --build build --target python_twins_bundle, then build/tests/lessons/python_twins/
twins.json): copy it to the machine with the PyTorch to capture, and run this there. Each twin
and each probe runs as check_twins.py runs a twin: alone, in a child forked after `import
torch`, its stdout and stderr read together. Any GPU is hidden first, so the capture shows what
PyTorch prints on a computer without one, the linux-x86_64 machine the lessons document.
"""

import json
import os
import platform
import sys

os.environ["CUDA_VISIBLE_DEVICES"] = ""  # before torch is imported: a machine without a GPU

import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_twins import run_in_child  # noqa: E402
from pytorch_probes import PRELUDE, PROBES  # noqa: E402


COURSE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def run(code):
    """What the program prints, with the course's folder left out of any traceback: a capture
    holds no path of the machine it was made on."""
    printed, status = run_in_child(code)
    return printed.replace(COURSE + os.sep, ""), status


def release_folder_name():
    major, minor = torch.__version__.split("+")[0].split(".")[:2]
    return f"pytorch-{major}.{minor}"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as bundle:
        lessons = json.load(bundle)
    output = sys.argv[2]
    os.makedirs(output, exist_ok=True)
    about = {"torch": torch.__version__, "python": platform.python_version(), "system": platform.platform()}

    twins = {}
    for lesson in lessons:
        cells = {}
        for cell in lesson["cells"]:
            if cell["twin"] is None:
                continue
            printed, status = run(cell["twin"]["code"])
            cells[cell["cell"]] = {"code": cell["twin"]["code"], "printed": printed, "status": status}
        twins[os.path.basename(lesson["lesson"])] = cells
    probes = {}
    for name, code in PROBES.items():
        printed, status = run(PRELUDE + code + "\n")
        probes[name] = {"code": code, "printed": printed, "status": status}

    for file, content in (("twins.json", {"about": about, "lessons": twins}),
                          ("probes.json", {"about": about, "probes": probes})):
        with open(os.path.join(output, file), "w") as out:
            json.dump(content, out, indent=1, sort_keys=True, ensure_ascii=False)
            out.write("\n")
    print(f"PyTorch {torch.__version__}: {sum(len(c) for c in twins.values())} twins of {len(twins)} lessons "
          f"and {len(probes)} probes recorded in {output} (a release's folder is named {release_folder_name()})")


if __name__ == "__main__":
    main()
