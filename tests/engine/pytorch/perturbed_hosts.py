"""The same outputs on every host: runs every lesson's verification on each machine the lessons document,
every lab's reference solution and the engine's parity tests against PyTorch, under hosts
perturbed in the ways that move floating-point results in other programs, and requires each run
to pass, as it does unperturbed:

  - the caches the matrix products block for (MPS_COURSE_TEST_CACHE_KIB, which the engine's
    kernels and Eigen both take), smaller and larger than any default;
  - the BLAS kernel OpenBLAS picks (OPENBLAS_CORETYPE), which no documented digit may come from.

The third perturbation, another SIMD level, is a build of its own: CI builds the course with
TUTOR_FAST_KERNELS=OFF and runs the whole suite there (.ci/run).

  perturbed_hosts.py --lesson PROGRAM... --lab PROGRAM... --parity PROGRAM
"""

import argparse
import concurrent.futures
import os
import platform
import re
import subprocess
import sys

# Each perturbation is an environment; the architecture decides which OpenBLAS cores exist.
CORETYPES = {"x86_64": ["Prescott", "SkylakeX"], "aarch64": ["ARMV8", "NEOVERSEN1"], "arm64": ["ARMV8", "NEOVERSEN1"]}
CACHES_KIB = ["16,256,2048", "48,2048,32768"]
# The half-precision kernels too: their float32 accumulation and rounding must not move either.
PARITY_FILES = ("*random_test.cpp,*training_parity_test.cpp,*transformer_parity_test.cpp,*cnn_parity_test.cpp,"
                "*matmul_test.cpp,*half_test.cpp,*precision_parity_test.cpp,*autocast_test.cpp")


def perturbations():
    coretypes = CORETYPES.get(platform.machine(), CORETYPES["x86_64"])
    return [{"MPS_COURSE_TEST_CACHE_KIB": caches, "OPENBLAS_CORETYPE": core}
            for caches, core in zip(CACHES_KIB, coretypes)]


def run(command, environment):
    env = dict(os.environ, NO_COLOR="1", **environment)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout + done.stderr


def documented_machines(lesson):
    """The machines the lessons document outputs for: the first group --list-machines shows,
    one name per line that starts with two spaces (a wide terminal keeps each on one line)."""
    status, listing = run([lesson, "--list-machines"], {"COLUMNS": "200"})
    if status != 0:
        sys.exit(f"{lesson} --list-machines failed:\n{listing}")
    return re.findall(r"^  (\S+)", listing.split("\n\n")[0], re.MULTILINE)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", nargs="+", required=True)
    parser.add_argument("--lab", nargs="+", required=True)
    parser.add_argument("--parity", required=True)
    args = parser.parse_args()

    runs = []  # (what, command)
    for lesson in args.lesson:
        for machine in documented_machines(lesson):
            runs.append((f"{os.path.basename(lesson)} on {machine}", [lesson, "--verify", "--machine", machine]))
    runs += [(os.path.basename(lab), [lab]) for lab in args.lab]
    runs.append(("the parity tests", [args.parity, f"--source-file={PARITY_FILES}"]))

    jobs = [(perturbation, what, command) for perturbation in perturbations() for what, command in runs]
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = pool.map(lambda job: (job, run(job[2], job[0])), jobs)
        for (perturbation, what, _), (status, output) in outcomes:
            if status == 0:
                continue
            failures += 1
            setting = " ".join(f"{k}={v}" for k, v in perturbation.items())
            print(f"✘ {what} differs under {setting}:\n{output}")
    print(f"{len(jobs) - failures} of {len(jobs)} runs under {len(perturbations())} perturbed hosts "
          f"print what the unperturbed host prints")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
