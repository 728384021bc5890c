"""Measures MLP classifiers' training steps on this computer's cpu and, on a Mac with MPS, its GPU,
and prints them as a [[source]] of the cost model's validation set (tests/data/cost_model_cases.toml),
ready to paste: the MLP family has no check case until someone measures one on a Mac with
PyTorch 2.5 or later (tests/benchmarks/cost_model/README.md).

Each step is the one `course plan` predicts for an MLP (engine/planner/src/training_step.cpp): a
batch made on the cpu and copied to the device, forward (linear layers with ReLU between them),
cross-entropy, backward, the optimizer's step, zero_grad. A round times `--steps` steps between two
synchronizations, after ten untimed ones; each case is the median of `--rounds` rounds, in ms per
step. The cases are `check` cases: no constant of the model was fitted to them.

    python3 tests/tools/measure_mlp_step.py --machine m2-pro-16gb > mlp_steps.toml

--machine names the simulated machine whose chip and GPU core count match this Mac
(`build/lessons/lesson01 --list-machines`); the printed hardware line says what this one has."""
import argparse
import datetime
import platform
import statistics
import subprocess
import time

import torch
import torch.nn.functional as F

# (widths, batch, optimizer): course plan's example (engine/planner/examples/mnist_mlp.toml),
# mlx-examples' MNIST MLP, and one wide enough for the GPU to matter.
MODELS = [
    ([784, 512, 256, 10], 128, "adam"),
    ([784, 32, 32, 10], 256, "sgd"),
    ([784, 2048, 2048, 10], 128, "adamw"),
]


def optimizer(kind, params):
    """The planner's optimizers (runs::make_optimizer): SGD with momentum, Adam, AdamW."""
    if kind == "sgd":
        return torch.optim.SGD(params, lr=6e-4, momentum=0.9)
    if kind == "adam":
        return torch.optim.Adam(params, lr=6e-4)
    return torch.optim.AdamW(params, lr=6e-4, betas=(0.9, 0.95), weight_decay=0.01)


def synchronize(device):
    if device == "mps":
        torch.mps.synchronize()


def ms_per_step(widths, batch, kind, device, steps, rounds):
    layers = []
    for i in range(len(widths) - 1):
        layers.append(torch.nn.Linear(widths[i], widths[i + 1]))
        if i + 2 < len(widths):
            layers.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*layers).to(device)
    opt = optimizer(kind, model.parameters())

    def step():
        x = torch.zeros(batch, widths[0]).to(device)
        y = torch.zeros(batch, dtype=torch.int64).to(device)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()

    for _ in range(10):
        step()
    samples = []
    for _ in range(rounds):
        synchronize(device)
        start = time.perf_counter()
        for _ in range(steps):
            step()
        synchronize(device)
        samples.append((time.perf_counter() - start) / steps * 1e3)
    return statistics.median(samples)


def sysctl(name):
    try:
        return subprocess.run(["sysctl", "-n", name], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def gpu_cores():
    try:
        shown = subprocess.run(["system_profiler", "SPDisplaysDataType"], capture_output=True, text=True,
                               check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return ""
    for line in shown.splitlines():
        if "Total Number of Cores" in line:
            return line.split(":")[1].strip() + "-core GPU"
    return ""


def hardware():
    """A Mac's chip, GPU cores, memory and macOS ("Apple M2 Pro, 19-core GPU, 16 GB, macOS 15.3");
    elsewhere the processor and the system."""
    chip = sysctl("machdep.cpu.brand_string") or platform.processor() or platform.machine()
    memory = sysctl("hw.memsize")
    parts = [chip, gpu_cores(), f"{int(memory) // 2**30} GB" if memory else "",
             f"macOS {platform.mac_ver()[0]}" if platform.mac_ver()[0] else platform.platform()]
    return ", ".join(part for part in parts if part)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--machine", required=True, help="the simulated machine that matches this Mac")
    parser.add_argument("--steps", type=int, default=100, help="steps a round times (default 100)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, of which the median (default 5)")
    args = parser.parse_args()

    devices = ["cpu"] + (["mps"] if torch.backends.mps.is_available() else [])
    rows = []
    for widths, batch, kind in MODELS:
        for device in devices:
            ms = ms_per_step(widths, batch, kind, device, args.steps, args.rounds)
            rows.append(f'  {{ role = "check", regime = "whole model steps", device = "{device}", op = "mlp", '
                        f'optimizer = "{kind}", shapes = [{widths}], model = {{ batch = {batch} }}, '
                        f'measured_ms = {ms:.4g} }},')
    today = datetime.date.today().isoformat()
    print("[[source]]")
    print(f'id = "mlp-steps-{args.machine}-{today}"')
    print(f'cite = "tests/tools/measure_mlp_step.py, run {today}: say here who ran it and where it is published"')
    print(f'hardware = "{hardware()}"')
    print(f'pytorch = "{torch.__version__}"')
    print(f'machine = "{args.machine}"')
    print("# A batch made on the cpu and copied in, forward, cross-entropy, backward, the optimizer's step,")
    print(f"# zero_grad; {args.steps} steps between two synchronizations after ten untimed, the median of "
          f"{args.rounds} rounds.")
    if "mps" not in devices:
        print("# No MPS here: the cpu's cases only.")
    print('timing = "script"')
    print("cases = [")
    print("\n".join(rows))
    print("]")


if __name__ == "__main__":
    main()
