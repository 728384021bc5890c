"""tests/tools/measure_mlp_step.py prints cases the validation reads: run with the PyTorch here (a
few steps, on the cpu), its [[source]] goes through cost_model_validation --cases, which must
accept it (exit 0 or 1, not 2: refused) and count its MLP cases in the family's row. Skipped,
saying why, where no Python here has PyTorch.

    measure_mlp_step_test.py PYTHON MEASURE_SCRIPT VALIDATION"""
import re
import subprocess
import sys
import tempfile


def main():
    python, script, validation = sys.argv[1:4]
    if subprocess.run([python, "-c", "import torch"], capture_output=True).returncode != 0:
        print(f"SKIPPED: {python} has no PyTorch (Debian: sudo apt-get install python3-torch)")
        return 0
    measured = subprocess.run([python, script, "--machine", "m1-8gb", "--steps", "2", "--rounds", "1"],
                              capture_output=True, text=True, timeout=300)
    if measured.returncode != 0:
        print("the measuring script failed:\n" + measured.stderr)
        return 1
    with tempfile.NamedTemporaryFile("w", suffix=".toml") as cases:
        cases.write(measured.stdout)
        cases.flush()
        checked = subprocess.run([validation, "--cases", cases.name], capture_output=True, text=True, timeout=300)
    print(measured.stdout + checked.stdout + checked.stderr)
    if checked.returncode not in (0, 1):
        print(f"cost_model_validation refused the measured cases (exit {checked.returncode})")
        return 1
    # the family table's row: "mlp   -   3 ..." (no mps here, three cpu cases)
    if not re.search(r"^mlp\s+-\s+3\s", checked.stdout, re.MULTILINE):
        print("the validation did not count the three MLP cases on the cpu")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
