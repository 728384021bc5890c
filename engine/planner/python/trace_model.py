"""Traces one training step of the learner's PyTorch model on the meta device, for
`course plan --torch FILE.py`.

    trace_model.py FILE.py [--batch-size N ...] [--output TRACES]

FILE.py defines `training_step(batch_size)`, which returns a dict (the contract; the planner's
README and examples/pytorch/ show it in use):

    "model":     the torch.nn.Module to train
    "inputs":    what the model is called with: a tensor or a shape (a tuple of ints, made a
                 float32 tensor), or a tuple or list of them for several positional inputs
    "targets":   optional: a tensor or a shape (class indices: int64) the loss compares with
    "loss":      optional: loss(output, targets) returning the loss, e.g. nn.CrossEntropyLoss();
                 without it the model's output must be the loss
    "optimizer": a torch.optim optimizer over the model's parameters
    "clip_grad_norm": optional: the norm the gradients are clipped to before the optimizer's
                 step (torch.nn.utils.clip_grad_norm_), as nanoGPT's train.py clips them to 1.0

Everything `training_step` makes lands on the meta device: tensors have shapes and dtypes and no
memory, so a model of billions of parameters traces in seconds. The tracer then runs one step
as a training loop does (the forward pass and the loss, backward, the optimizer's step and
zero_grad) and records every ATen operator PyTorch dispatches (TorchDispatchMode), with its
tensors' shapes and dtypes, the module that ran it and the phase, and the torch-level calls
(TorchFunctionMode: F.linear, F.conv2d, ...) that the forward pass's operators come from.

It prints the trace as one JSON object after the line TRACE_FOLLOWS: one for training_step's
own default batch_size, or one for each batch size given (the batch sweep's), each after its
own TRACE_FOLLOWS line; with --output, into the file TRACES instead of stdout. Exit status: 0
the traces were printed; 77 no PyTorch could be imported; 3 FILE.py did not keep the contract or
failed;
4 a construct the meta device cannot run (a value the step reads, an operator without a meta
kernel); the message on stderr says which, where.
"""

import argparse
import contextlib
import json
import math
import os
import platform
import sys
import traceback

NO_TORCH = 77
BROKEN_CONTRACT = 3
UNTRACEABLE = 4
TRACE_FOLLOWS = "--- trace ---"
TRACE_FORMAT = 1

try:
    import torch
    import torch.utils._pytree as pytree
    from torch.overrides import TorchFunctionMode, resolve_name
    from torch.utils._python_dispatch import TorchDispatchMode
    from meta_shapes import MISSING_META_KERNELS
    from step_contract import ContractError, checked_step, default_batch_size, load
except ImportError as error:  # no PyTorch, or one too old for modes (1.13 has them)
    print(f"{sys.executable} cannot import what the tracer needs from torch: {error}",
          file=sys.stderr)
    sys.exit(NO_TORCH)


class Untraceable(Exception):
    """An operator the meta device cannot run, or a value the step reads."""


class Tracer:
    """The trace being recorded: tensors by id, the torch-level calls, the ATen operators."""

    def __init__(self):
        self.ids = {}  # id(tensor) -> the trace's id; `kept` holds them, so no id is reused
        self.kept = []
        self.tensors = {}  # the trace's id -> [shape, dtype]
        self.calls = []
        self.ops = []
        self.phase = "setup"
        self.modules = []  # the module path of what runs now, outermost first
        self.call = None  # the index of the torch-level call running now

    def ref(self, tensor):
        """The tensor's id in the trace: a new one for a tensor first seen, or one whose shape
        or dtype an operator changed in place."""
        described = [list(tensor.shape), str(tensor.dtype).replace("torch.", "")]
        key = id(tensor)
        if key not in self.ids or self.tensors[self.ids[key]] != described:
            self.ids[key] = len(self.tensors) + 1
            self.tensors[self.ids[key]] = described
            self.kept.append(tensor)
        return self.ids[key]

    def value(self, value):
        """An argument as JSON: tensors by reference, numbers and strings as they are."""
        if isinstance(value, torch.Tensor):
            return {"tensor": self.ref(value)}
        if isinstance(value, (list, tuple)):
            return [self.value(v) for v in value]
        if isinstance(value, float) and not math.isfinite(value):
            return {"float": str(value)}  # -inf, as JSON has no infinities
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, torch.dtype):
            return {"dtype": str(value).replace("torch.", "")}
        return {"object": type(value).__name__}

    def module_path(self):
        return self.modules[-1] if self.modules else ""  # named_modules() names are full paths

    def record_op(self, func, args, kwargs, out, inferred):
        flat_in = [a for a in pytree.tree_flatten((args, kwargs))[0] if isinstance(a, torch.Tensor)]
        flat_out = [o for o in pytree.tree_flatten(out)[0] if isinstance(o, torch.Tensor)]
        name = func._schema.name  # "aten::addmm"
        op = {"op": name, "phase": self.phase,
              "module": self.module_path(), "inputs": [self.ref(t) for t in flat_in],
              "outputs": [self.ref(t) for t in flat_out]}
        if self.call is not None:
            op["call"] = self.call
        if inferred:
            op["meta_kernel"] = "the tracer's"  # PyTorch had none: its shapes rule
        self.ops.append(op)


class Operators(TorchDispatchMode):
    """Records each ATen operator PyTorch dispatches, below autograd."""

    def __init__(self, tracer):
        super().__init__()
        self.tracer = tracer

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        inferred = False
        try:
            out = func(*args, **kwargs)
        except (NotImplementedError, RuntimeError) as error:
            rule = MISSING_META_KERNELS.get(str(func))
            if rule is None:
                raise Untraceable(self.untraceable(func, error))
            out, inferred = rule(args), True
        self.tracer.record_op(func, args, kwargs, out, inferred)
        return out

    def untraceable(self, func, error):
        where = f"in {self.tracer.module_path() or 'the model'}, the {self.tracer.phase} phase"
        if func._schema.name == "aten::_local_scalar_dense":
            return (f"the step reads a tensor's value ({where}): .item(), float(), a Python if "
                    "or loop on a tensor, or printing one; the meta device holds no values, so "
                    "a step the planner traces computes without reading them")
        return (f"the meta device cannot run {func._schema.name} ({where}): "
                f"{str(error).splitlines()[0][:300]}")


class Calls(TorchFunctionMode):
    """Sends every tensor made to the meta device, and records the torch-level calls (F.linear,
    Tensor.view, ...) of the step, each with the operators it dispatches."""

    def __init__(self, tracer):
        super().__init__()
        self.tracer = tracer

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if "device" in kwargs or (_makes_tensors(func) and not _is_a_number(func, args)):
            kwargs["device"] = "meta"
        if func is torch.Tensor.to:
            args = tuple("meta" if _is_device(a) else a for a in args)
        tracer = self.tracer
        if tracer.phase != "forward" or tracer.call is not None:  # the replay's calls: forward's
            return func(*args, **kwargs)
        index, first_op = len(tracer.calls), len(tracer.ops)
        tracer.call = index
        try:
            out = func(*args, **kwargs)
        finally:
            tracer.call = None
        if len(tracer.ops) > first_op or isinstance(out, torch.Tensor):
            tracer.calls.append({
                "function": resolve_name(func) or getattr(func, "__name__", str(func)),
                "phase": tracer.phase, "module": tracer.module_path(),
                "arguments": tracer.value(list(args)),
                "keywords": {k: tracer.value(v) for k, v in kwargs.items() if k != "device"},
                "outputs": [tracer.ref(o) for o in pytree.tree_flatten(out)[0]
                            if isinstance(o, torch.Tensor)]})
        else:  # a property, or a call that dispatched nothing: its ops point at no call
            for op in tracer.ops[first_op:]:
                op.pop("call", None)
        return out


FACTORIES = {"empty", "zeros", "ones", "full", "rand", "randn", "randint", "randperm", "arange",
             "linspace", "logspace", "eye", "tensor", "as_tensor", "empty_strided", "normal",
             "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
             "randint_like"}


def _makes_tensors(func):
    return getattr(func, "__name__", "") in FACTORIES


def _is_a_number(func, args):
    """torch.tensor(0.0): a value the code may read (an optimizer's step count), kept on the cpu."""
    return (getattr(func, "__name__", "") in ("tensor", "as_tensor") and len(args) == 1
            and isinstance(args[0], (bool, int, float)))


def _is_device(value):
    return isinstance(value, torch.device) or (
        isinstance(value, str) and value.split(":")[0] in ("cpu", "cuda", "mps", "meta"))


def setup(training_step, batch_size, tracer):
    """What training_step returns, made on the meta device and checked against the contract."""
    with Calls(tracer):
        return checked_step(training_step(batch_size))


def hook_modules(model, tracer):
    """Keeps tracer.modules the path of the module running now."""
    def enter(name):
        return lambda module, args: tracer.modules.append(name)

    def leave(module, args, output):
        tracer.modules.pop()

    for name, module in model.named_modules():
        module.register_forward_pre_hook(enter(name))
        module.register_forward_hook(leave)


def run_step(step, model, inputs, targets, tracer):
    """One training step, as a loop runs it, under both modes; returns the output and loss."""
    loss_fn = step.get("loss")
    optimizer = step["optimizer"]
    with Calls(tracer), Operators(tracer):
        tracer.phase = "forward"
        output = model(*inputs)
        loss = loss_fn(output, targets) if loss_fn is not None else output
        if not isinstance(loss, torch.Tensor) or loss.numel() != 1:
            raise ContractError("the loss must be one number: give a loss function, or a model "
                                "whose output is its loss")
        tracer.phase = "backward"
        loss.backward()
        tracer.phase = "optimizer"
        if step.get("clip_grad_norm") is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), step["clip_grad_norm"])
        optimizer.step()
        optimizer.zero_grad()
    return output, loss


def optimizer_record(optimizer, tracer):
    """The optimizer's class and its groups' settings, numbers and booleans only."""
    groups = []
    for group in optimizer.param_groups:
        settings = {k: tracer.value(v) for k, v in group.items()
                    if k != "params" and (v is None or isinstance(v, (bool, int, float, tuple)))}
        settings["params"] = [tracer.ref(p) for p in group["params"]]
        groups.append(settings)
    return {"class": type(optimizer).__name__, "groups": groups}


def trace(path, batch_size):
    tracer = Tracer()
    step, model, inputs, targets = setup(load(path), batch_size, tracer)
    hook_modules(model, tracer)
    parameters = [{"id": tracer.ref(p), "name": name, "requires_grad": p.requires_grad}
                  for name, p in model.named_parameters()]
    buffers = [{"id": tracer.ref(b), "name": name} for name, b in model.named_buffers()]
    output, loss = run_step(step, model, inputs, targets, tracer)
    return {
        "format": TRACE_FORMAT, "torch": torch.__version__, "python": platform.python_version(),
        "file": os.path.basename(path), "model": type(model).__name__, "batch_size": batch_size,
        "tensors": {str(i): d for i, d in tracer.tensors.items()},
        "parameters": parameters, "buffers": buffers,
        "inputs": [tracer.ref(t) for t in inputs],
        "targets": tracer.ref(targets) if targets is not None else None,
        "loss": tracer.ref(loss), "optimizer": optimizer_record(step["optimizer"], tracer),
        "clip_grad_norm": step.get("clip_grad_norm"),
        "calls": tracer.calls, "ops": tracer.ops}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--batch-size", type=int, nargs="*", default=[])
    # Where the traces go (stdout if not given): a file keeps them apart from whatever the
    # learner's own code prints, and whole however long a sweep's traces are.
    parser.add_argument("--output")
    arguments = parser.parse_args()
    try:
        sizes = arguments.batch_size or [default_batch_size(load(arguments.file))]
        traces = [trace(arguments.file, size) for size in sizes]
    except ContractError as error:
        print(error, file=sys.stderr)
        return BROKEN_CONTRACT
    except Untraceable as error:
        print(error, file=sys.stderr)
        return UNTRACEABLE
    except Exception:  # the learner's own code failed: its traceback, as Python shows it
        traceback.print_exc()
        return BROKEN_CONTRACT
    with (open(arguments.output, "w", encoding="utf-8") if arguments.output
          else contextlib.nullcontext(sys.stdout)) as output:
        for result in traces:
            print(TRACE_FOLLOWS, file=output)
            json.dump(result, output, separators=(",", ":"))
            print(file=output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
