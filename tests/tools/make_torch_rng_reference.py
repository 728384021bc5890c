#!/usr/bin/env python3
"""Writes tests/data/torch_cpu_rng.txt: values of PyTorch's CPU generator, bit for bit.

Run with a real PyTorch (the reference data came from Debian's python3-torch 1.13.1):

    python3 tests/tools/make_torch_rng_reference.py > tests/data/torch_cpu_rng.txt

PyTorch picks its CPU kernels at run time, and torch.randn's sampler differs between them for
16 or more values, so each kernel is recorded in a child process pinned with
ATEN_CPU_CAPABILITY: "avx2" (x86 machines) and "default" (the portable kernel, which Apple
silicon runs). Each line is

    KERNEL OP SEED SHAPE VALUE...

with OP one of randn, rand or linear (the weight, then the bias, of nn.Linear(in, out) with
SHAPE in,out), and every float32 value as its 8 hex digits. A line may list only the first values of a large tensor.
"""
import os
import subprocess
import sys

CHILD = r'''
import struct, sys, torch

def hexes(t):
    return " ".join("%08x" % struct.unpack("<I", struct.pack("<f", v))[0]
                    for v in t.detach().flatten().tolist())

kernel = sys.argv[1]

def line(op, seed, shape, values):
    print(kernel, op, seed, shape, values)

for seed in [0, 1, 42, 1234, 2**32 + 7]:
    for n in [1, 2, 5, 15, 16, 17, 31, 32, 40, 100, 1000]:
        torch.manual_seed(seed)
        line("randn", seed, str(n), hexes(torch.randn(n)))
    for n in [1, 5, 16, 100]:
        torch.manual_seed(seed)
        line("rand", seed, str(n), hexes(torch.rand(n)))
    for fan_in, fan_out in [(3, 2), (768, 3), (10, 7)]:
        torch.manual_seed(seed)
        m = torch.nn.Linear(fan_in, fan_out)
        line("linear", seed, "%d,%d" % (fan_in, fan_out), hexes(m.weight) + " " + hexes(m.bias))
torch.manual_seed(0)
line("randn", 0, "32,128,768", hexes(torch.randn(32, 128, 768).flatten()[:64]))
'''


def main():
    import torch  # noqa: F401  (fail early, with Python's message, when PyTorch is missing)
    print("# PyTorch %s CPU generator values; see tests/tools/make_torch_rng_reference.py"
          % torch.__version__)
    for kernel, capability in [("avx2", "avx2"), ("portable", "default")]:
        env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
        sys.stdout.flush()
        subprocess.run([sys.executable, "-c", CHILD, kernel], env=env, check=True)


if __name__ == "__main__":
    main()
