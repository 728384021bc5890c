"""The contract of a file `course plan --torch` traces (trace_model.py's docstring states it): a
function training_step(batch_size) returning the model, its inputs, the loss and the optimizer."""

import importlib.util
import inspect
import os
import sys

import torch


class ContractError(Exception):
    """FILE.py does not provide what the contract asks for."""


def load(path):
    spec = importlib.util.spec_from_file_location("learner_model", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec.loader.exec_module(module)
    if not callable(getattr(module, "training_step", None)):
        raise ContractError(f"{path} defines no training_step(batch_size) function; it returns "
                            "the model, its inputs, the loss and the optimizer (see the planner's "
                            "README)")
    return module.training_step


def tensor_of(value, dtype, what):
    if isinstance(value, torch.Tensor):
        return value
    if isinstance(value, (tuple, list)) and all(isinstance(d, int) for d in value):
        return torch.empty(tuple(value), dtype=dtype, device="meta")
    raise ContractError(f"{what} must be a tensor or a shape (a tuple of ints), not "
                        f"{type(value).__name__}")


def inputs_of(value):
    """One input (a tensor or a shape), or several in a tuple or list."""
    if isinstance(value, torch.Tensor) or (
            isinstance(value, (tuple, list)) and all(isinstance(d, int) for d in value)):
        return [tensor_of(value, torch.float32, "inputs")]
    if isinstance(value, (tuple, list)):
        return [tensor_of(v, torch.float32, "each of the inputs") for v in value]
    raise ContractError("inputs must be a tensor, a shape, or a tuple of them")


def checked_step(step):
    """training_step's dict, checked: it, the model, its inputs, and its targets (or None)."""
    if not isinstance(step, dict):
        raise ContractError("training_step must return a dict with the keys model, inputs, "
                            "optimizer, and optionally targets, loss and clip_grad_norm")
    missing = [k for k in ("model", "inputs", "optimizer") if k not in step]
    if missing:
        raise ContractError("training_step's dict has no " + ", ".join(missing))
    model = step["model"]
    if not isinstance(model, torch.nn.Module):
        raise ContractError(f"model must be a torch.nn.Module, not {type(model).__name__}")
    if not isinstance(step["optimizer"], torch.optim.Optimizer):
        raise ContractError("optimizer must be a torch.optim optimizer over the model's parameters")
    targets = step.get("targets")
    if targets is not None:
        targets = tensor_of(targets, torch.int64, "targets")
    return step, model, inputs_of(step["inputs"]), targets


def default_batch_size(training_step):
    default = inspect.signature(training_step).parameters.get("batch_size")
    if default is None or default.default is inspect.Parameter.empty:
        raise ContractError("training_step(batch_size) needs a default batch_size: the batch "
                            "course plan plans")
    return default.default
