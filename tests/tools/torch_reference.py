"""Shared by the make_torch_*_reference.py scripts: runs a script in a child Python whose
PyTorch uses its AVX2 CPU kernels (ATEN_CPU_CAPABILITY is read at import), under a header line
that names the PyTorch release the numbers came from."""
import os
import subprocess
import sys


def run_with_avx2(child_script, description):
    import torch  # fail early, with Python's own message, when PyTorch is missing
    print("# PyTorch %s %s" % (torch.__version__, description))
    sys.stdout.flush()
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2")
    subprocess.run([sys.executable, "-c", child_script], env=env, check=True)
