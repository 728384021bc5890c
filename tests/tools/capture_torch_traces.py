"""Traces, with the PyTorch of the Python that runs this, every PyTorch model course plan --torch
is tested on: the examples (engine/planner/examples/pytorch/) and the families written in PyTorch
(tests/engine/planner/pytorch/), into OUT/example_NAME.json and OUT/family_NAME.json. Run on the
team's GPU machine, with its PyTorch 2.11, from the repository's root:

    python3 tests/tools/capture_torch_traces.py tests/data/pytorch-2.11/traces

then configure again: planner_tests then plans each trace, and requires each family's to agree
with its native plan as Debian's 1.13 traces do (tests/engine/planner/torch_test.cpp).
"""

import os
import subprocess
import sys

FOLDERS = {"example": "engine/planner/examples/pytorch", "family": "tests/engine/planner/pytorch"}
TRACE_FOLLOWS = "--- trace ---\n"


def main(out):
    os.makedirs(out, exist_ok=True)
    for kind, folder in FOLDERS.items():
        for name in sorted(f for f in os.listdir(folder) if f.endswith(".py")):
            run = subprocess.run([sys.executable, "engine/planner/python/trace_model.py",
                                  os.path.join(folder, name)], capture_output=True, text=True)
            if run.returncode != 0 or TRACE_FOLLOWS not in run.stdout:
                sys.exit(f"{folder}/{name} did not trace (exit {run.returncode}):\n"
                         f"{run.stdout}{run.stderr}")
            trace = run.stdout.split(TRACE_FOLLOWS)[1].splitlines()[0]
            path = os.path.join(out, f"{kind}_{name[:-3]}.json")
            with open(path, "w") as file:
                file.write(trace + "\n")
            print(path)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
