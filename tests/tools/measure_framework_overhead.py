"""Measures what eager PyTorch's framework costs on the host, beside the kernels: a tiny op, the
autograd node an op records when an input requires grad, one node of backward, a module call
and an optimizer's loop over its parameters. Tensors are 4 x 4 on the cpu, one thread, so the
kernels cost next to nothing and what is left is the framework. Prints JSON, each cost also as a
multiple of the tiny op: the cost model scales those ratios by a Mac's own tiny-op time
(engine/pytorch/src/machine/cost_model.cpp, "Framework overhead").

Run with any PyTorch: python3 tests/tools/measure_framework_overhead.py > FILE.json"""
import json
import platform
import statistics
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def per_call_us(fn, calls=2000, repeats=7):
    """The median over `repeats` of the mean time of `calls` calls, in microseconds."""
    for _ in range(calls // 10):
        fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


a, b = torch.randn(4, 4), torch.randn(4, 4)
leaf = torch.randn(4, 4, requires_grad=True)
linear = torch.nn.Linear(4, 4)
weight, bias = linear.weight.detach(), linear.bias.detach()


def chain(n):
    x = leaf
    for _ in range(n):
        x = x * b
    return x.sum()


def forward_backward(n):
    chain(n).backward()


tiny_op = per_call_us(lambda: a + b)
costs = {"tiny_op": tiny_op}
# Recording a node: a multiplication whose input requires grad, less the tiny op (an addition:
# at 4 x 4 without grad the two cost the same, 1.14 and 1.10 us with PyTorch 1.13 on an x86-64
# Linux machine).
costs["record_node"] = per_call_us(lambda: leaf * b) - tiny_op
# Backward, per node of a chain of multiplications: the node's one kernel (grad * b) is a tiny
# op; the rest is autograd's engine.
short, long = 10, 60
forward = (per_call_us(lambda: chain(long), 200) - per_call_us(lambda: chain(short), 200))
both = (per_call_us(lambda: forward_backward(long), 200) -
        per_call_us(lambda: forward_backward(short), 200))
costs["backward_node"] = (both - forward) / (long - short) - tiny_op
costs["module_call"] = per_call_us(lambda: linear(a)) - per_call_us(
    lambda: F.linear(a, weight, bias))


def top_level_ops(fn):
    """How many ATen ops `fn` calls from Python (ops called by other ops not counted)."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        fn()

    def called_by_op(event):
        parent = event.cpu_parent
        while parent is not None:
            if parent.name.startswith("aten::"):
                return True
            parent = parent.cpu_parent
        return False

    return sum(1 for e in prof.events() if e.name.startswith("aten::") and not called_by_op(e))


# An optimizer's step over few and many tiny parameters: the slope is the cost per parameter.
# foreach=False: the per-parameter loop PyTorch runs on mps and the cpu. What the loop costs
# beyond its ops (each a tiny op) is Python's share.
few, many = 4, 64
params = [torch.randn(4, 4, requires_grad=True) for _ in range(many)]
for p in params:
    p.grad = torch.randn(4, 4)
for name, make in (("sgd", lambda ps: torch.optim.SGD(ps, lr=0.1, foreach=False)),
                   ("adam", lambda ps: torch.optim.Adam(ps, lr=0.1, foreach=False)),
                   ("adamw", lambda ps: torch.optim.AdamW(ps, lr=0.1, foreach=False))):
    small, large = make(params[:few]), make(params)
    per_parameter = (per_call_us(large.step, 200) - per_call_us(small.step, 200)) / (many - few)
    ops = (top_level_ops(large.step) - top_level_ops(small.step)) / (many - few)
    costs[name + "_ops_per_parameter"] = ops
    costs[name + "_python_per_parameter"] = per_parameter - ops * tiny_op

print(json.dumps({
    "pytorch": torch.__version__,
    "machine": platform.machine(),
    "processor": platform.processor() or "unknown",
    "microseconds": {k: round(v, 3) for k, v in costs.items()},
    "in_tiny_ops": {k: round(v / tiny_op, 2) for k, v in costs.items() if "_ops_" not in k},
}, indent=1))
