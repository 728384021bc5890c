"""Measures what eager PyTorch's framework costs on the host, beside the kernels: a tiny op, the
autograd node an op records when an input requires grad, one node of backward, a module call,
an optimizer's loop over its parameters, and what each call of backward(), step() and
zero_grad() costs whatever the size of the model. Tensors are 4 x 4 on the cpu, one thread, so the
kernels cost next to nothing and what is left is the framework. Prints JSON, each cost also as a
multiple of the tiny op: the cost model scales those ratios by a Mac's own tiny-op time
(engine/pytorch/src/machine/cost_model.cpp, "Framework overhead"). A shared machine's clock and
neighbours move single runs by a third, so the whole measurement runs five times and each
figure is the median of the five.

Run with any PyTorch: python3 tests/tools/measure_framework_overhead.py > FILE.json"""
import json
import platform
import statistics
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
ROUNDS = 5


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


a, b = torch.randn(4, 4), torch.randn(4, 4)
leaf = torch.randn(4, 4, requires_grad=True)
linear = torch.nn.Linear(4, 4)
weight, bias = linear.weight.detach(), linear.bias.detach()
SHORT, LONG = 10, 60  # chain lengths
FEW, MANY = 4, 64  # parameter counts
params = [torch.randn(4, 4, requires_grad=True) for _ in range(MANY)]
OPTIMIZERS = (("sgd", lambda ps: torch.optim.SGD(ps, lr=0.1, foreach=False)),
              ("adam", lambda ps: torch.optim.Adam(ps, lr=0.1, foreach=False)),
              ("adamw", lambda ps: torch.optim.AdamW(ps, lr=0.1, foreach=False)))


def chain(n):
    x = leaf
    for _ in range(n):
        x = x * b
    return x.sum()


def forward_backward(n):
    chain(n).backward()


def zero_grad_us(count):
    """One zero_grad() (set_to_none, the default since 2.0) over `count` parameters, their
    gradients put back before each call."""
    optimizer = torch.optim.SGD(params[:count], lr=0.1)
    grads = [torch.randn(4, 4) for _ in range(count)]

    def restore():
        for p, g in zip(params[:count], grads):
            p.grad = g

    def restore_and_zero():
        restore()
        optimizer.zero_grad()

    return per_call_us(restore_and_zero, 500) - per_call_us(restore, 500)


class TinyMlp(torch.nn.Module):
    """Widths 4, 4, 4, 4: the kernels cost next to nothing."""

    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(3)])

    def forward(self, x):
        x = self.layers[0](x)
        for layer in self.layers[1:]:
            x = layer(x.relu())
        return x


def measure():
    """Every cost once, in microseconds."""
    tiny_op = per_call_us(lambda: a + b)
    costs = {"tiny_op": tiny_op}
    # Recording a node: a multiplication whose input requires grad, less the tiny op (an
    # addition: at 4 x 4 without grad the two cost the same, 1.14 and 1.10 us with PyTorch 1.13
    # on an x86-64 Linux machine).
    costs["record_node"] = per_call_us(lambda: leaf * b) - tiny_op
    # Backward, per node of a chain of multiplications: the node's one kernel (grad * b) is a
    # tiny op; the rest is autograd's engine.
    forward_short = per_call_us(lambda: chain(SHORT), 200)
    forward = per_call_us(lambda: chain(LONG), 200) - forward_short
    backward_short = per_call_us(lambda: forward_backward(SHORT), 200) - forward_short
    both = per_call_us(lambda: forward_backward(LONG), 200) - forward_short - backward_short
    costs["backward_node"] = (both - forward) / (LONG - SHORT) - tiny_op
    # The call itself: backward of the short chain runs SHORT + 2 nodes (the multiplications,
    # the sum's, the leaf's AccumulateGrad), each with a tiny kernel, and the seed's ones_like.
    # What is left is torch.autograd.backward's Python and the engine's set-up of its graph task.
    per_node = costs["backward_node"] + tiny_op
    costs["backward_call"] = backward_short - (SHORT + 2) * per_node - tiny_op
    costs["module_call"] = per_call_us(lambda: linear(a)) - per_call_us(
        lambda: F.linear(a, weight, bias))

    # An optimizer's step over few and many tiny parameters: the slope is the cost per parameter,
    # the intercept the call's own (its decorators, hooks and the grouping of the parameters).
    # foreach=False: the per-parameter loop PyTorch runs on mps and the cpu. What the loop costs
    # beyond its ops (each a tiny op) is Python's share.
    for p in params:
        p.grad = torch.randn(4, 4)
    for name, make in OPTIMIZERS:
        small, large = make(params[:FEW]), make(params)
        step_few = per_call_us(small.step, 200)
        per_parameter = (per_call_us(large.step, 200) - step_few) / (MANY - FEW)
        ops = (top_level_ops(large.step) - top_level_ops(small.step)) / (MANY - FEW)
        costs[name + "_ops_per_parameter"] = ops
        costs[name + "_python_per_parameter"] = per_parameter - ops * tiny_op
        costs[name + "_step_call"] = step_few - FEW * per_parameter

    costs["zero_grad_per_parameter"] = (zero_grad_us(MANY) - zero_grad_us(FEW)) / (MANY - FEW)
    costs["zero_grad_call"] = zero_grad_us(FEW) - FEW * costs["zero_grad_per_parameter"]

    # A whole training step of a tiny MLP as scripts write it: zero_grad(), the modules'
    # forward, cross_entropy, backward(), step(). Not a constant of the cost model: what its
    # framework constants are checked against (tests/engine/pytorch/framework_overhead_test.cpp).
    mlp = TinyMlp()
    features, labels = torch.randn(4, 4), torch.zeros(4, dtype=torch.long)
    for name, make in OPTIMIZERS[:2]:
        optimizer = make(mlp.parameters())

        def train_step():
            optimizer.zero_grad()
            F.cross_entropy(mlp(features), labels).backward()
            optimizer.step()

        costs["tiny_mlp_step_" + name] = per_call_us(train_step, 500)
    return costs


rounds = [measure() for _ in range(ROUNDS)]
microseconds = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
in_tiny_ops = {k: statistics.median(r[k] / r["tiny_op"] for r in rounds)
               for k in rounds[0] if "_ops_" not in k}
print(json.dumps({
    "pytorch": torch.__version__,
    "machine": platform.machine(),
    "processor": platform.processor() or "unknown",
    "rounds": ROUNDS,
    "microseconds": {k: round(v, 3) for k, v in microseconds.items()},
    "in_tiny_ops": {k: round(v, 2) for k, v in in_tiny_ops.items()},
}, indent=1))
