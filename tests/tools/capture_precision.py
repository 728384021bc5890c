"""Records what a real PyTorch does with dtypes, for the engine's precision parity test
(tests/engine/pytorch/precision_parity_test.cpp): type promotion over every pair of dtypes and
kind of operand, float16 and bfloat16 rounding of seeded values, the samplers in other dtypes,
a few float16 and bfloat16 kernels on the cpu, autocast's choice of dtype on the cpu for the
operations the engine implements, printing, and the texts of dtype errors.

    capture_precision.py OUTPUT_DIR

writes OUTPUT_DIR/precision.json. Debian's PyTorch 1.13 (/usr/bin/python3) made
tests/data/pytorch-1.13/precision.json; on a machine with PyTorch 2.11, the same command with
tests/data/pytorch-2.11 records that release (any GPU is hidden: everything here is the cpu's).
Floating-point results are recorded as the bits of each element, so the comparison is exact.
"""

import json
import os
import platform
import sys
import warnings

os.environ["CUDA_VISIBLE_DEVICES"] = ""  # before torch is imported: a machine without a GPU

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64", "bool"]
BITS_VIEW = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32,
             torch.float64: torch.int64}


def dtype(name):
    return getattr(torch, name)


def bits(t):
    """Each element's bits, as unsigned hexadecimal strings, or the values of an integer tensor."""
    t = t.detach().reshape(-1)
    if t.dtype in BITS_VIEW:
        width = t.element_size() * 8
        return [format(int(v) & ((1 << width) - 1), f"0{width // 4}x") for v in t.view(BITS_VIEW[t.dtype]).tolist()]
    return [int(v) for v in t.tolist()]


def outcome(run, values=True):
    """What an operation gives: its dtype and (unless `values` is false) bits, or the error
    Python would print, with any warnings it gave."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = run()
        if isinstance(result, torch.Tensor):
            shown = {"dtype": str(result.dtype), "bits": bits(result)} if values else {"dtype": str(result.dtype)}
        else:
            shown = {"value": repr(result)}
        if caught:
            shown["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
        return shown
    except Exception as e:  # noqa: BLE001 - the text is what is recorded
        return {"error": f"{type(e).__name__}: {e}"}


def operand(kind, name):
    """An operand of one promotion category: a tensor with dimensions, a 0-dim tensor, or a number."""
    if kind == "tensor":
        return torch.ones(2, dtype=dtype(name))
    if kind == "zerodim":
        return torch.ones((), dtype=dtype(name))
    return {"int": 2, "float": 2.5, "bool": True}[name]


def promotion():
    table = {f"{a},{b}": str(torch.promote_types(dtype(a), dtype(b))) for a in DTYPES for b in DTYPES}
    results = {}
    for a in DTYPES:
        for kind, names in (("tensor", DTYPES), ("zerodim", DTYPES), ("scalar", ["int", "float", "bool"])):
            for b in names:
                key = f"tensor:{a}|{kind}:{b}"
                results[key] = outcome(lambda: torch.result_type(operand("tensor", a), operand(kind, b)))
                results[key + "|add"] = outcome(lambda: operand("tensor", a) + operand(kind, b))
                results[key + "|truediv"] = outcome(lambda: operand("tensor", a) / operand(kind, b))
                results[key + "|lt"] = outcome(lambda: operand("tensor", a) < operand(kind, b))
    return table, results


def seeded(n, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(n, generator=generator)


def rounding():
    """float32 values across float16's range and beyond, rounded to each half type."""
    values = torch.cat([seeded(64), seeded(64, 1) * 1e-5, seeded(64, 2) * 3e4, seeded(32, 3) * 1e5,
                        torch.tensor([0.0, -0.0, 65504.0, 65519.0, 65520.0, 2.0 ** -24, 2.0 ** -25,
                                      1.5 * 2.0 ** -25, 2.0 ** -14, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11,
                                      float("inf"), float("-inf"), float("nan"), 3.0e38, 1.0 + 2.0 ** -8])])
    return {"float32": bits(values), "float16": bits(values.half()), "bfloat16": bits(values.bfloat16()),
            "float16_to_float32": bits(values.half().float()), "bfloat16_to_float32": bits(values.bfloat16().float()),
            "float64_to_float16": bits(values.double().mul(1 + 2.0 ** -30).half())}


def samplers():
    recorded = {}
    for name in ["float16", "bfloat16", "float64"]:
        for n in (5, 20, 37):
            torch.manual_seed(0)
            recorded[f"randn:{name}:{n}"] = outcome(lambda: torch.randn(n, dtype=dtype(name)))
            torch.manual_seed(0)
            recorded[f"rand:{name}:{n}"] = outcome(lambda: torch.rand(n, dtype=dtype(name)))
    torch.manual_seed(0)
    recorded["dropout:float32:64"] = outcome(lambda: F.dropout(torch.ones(64), 0.5, training=True))
    torch.manual_seed(0)
    recorded["dropout:float32:0.1:64"] = outcome(lambda: F.dropout(torch.ones(64), 0.1, training=True))
    return recorded


def kernels():
    """A few kernels in float16 and bfloat16 on seeded inputs (made in float32, then rounded)."""
    recorded = {}
    x, w = seeded(4 * 64).reshape(4, 64), seeded(64 * 8, 1).reshape(64, 8)
    for name in ["float16", "bfloat16"]:
        t = dtype(name)
        cases = {
            "sum": lambda: (x.to(t) * 8).sum(),
            "sum_dim": lambda: x.to(t).sum(1),
            "mean": lambda: x.to(t).mean(),
            "matmul": lambda: x.to(t) @ w.to(t),
            "linear": lambda: F.linear(x.to(t), w.t().to(t), seeded(8, 2).to(t)),
            "softmax": lambda: torch.softmax(x.to(t), 1),
            "log_softmax": lambda: torch.log_softmax(x.to(t), 1),
            "layer_norm": lambda: F.layer_norm(x.to(t), (64,)),
            "gelu": lambda: F.gelu(x.to(t)),
            "relu": lambda: F.relu(x.to(t)),
            "tanh": lambda: torch.tanh(x.to(t)),
            "add": lambda: x.to(t) + seeded(64, 3).to(t),
            "mul_scalar": lambda: x.to(t) * 0.1,
            "div_scalar": lambda: x.to(t) / 3,
        }
        for op, run in cases.items():
            recorded[f"{op}:{name}"] = outcome(run)
    return recorded


def autocast_cpu():
    """The dtype each operation returns under torch.autocast("cpu") from float32 inputs."""
    x, w = seeded(4 * 8).reshape(4, 8), seeded(8 * 8, 1).reshape(8, 8)
    image, kernel = seeded(2 * 3 * 8 * 8).reshape(2, 3, 8, 8), seeded(3 * 3 * 3 * 3, 1).reshape(3, 3, 3, 3)
    labels = torch.tensor([0, 1, 2, 3])
    # Each op twice: on float32 inputs (does it run in lower precision?) and on the output of a
    # product, in the lower precision (is it sent back to float32, or does it stay?).
    ops = {
        "matmul": lambda a: a @ w,
        "bmm": lambda a: a.reshape(1, 4, 8) @ w.reshape(1, 8, 8),
        "linear": lambda a: F.linear(a, w, seeded(8, 2)),
        "softmax": lambda a: torch.softmax(a, 1),
        "log_softmax": lambda a: torch.log_softmax(a, 1),
        "layer_norm": lambda a: F.layer_norm(a, (8,)),
        "gelu": lambda a: F.gelu(a),
        "relu": lambda a: F.relu(a),
        "add": lambda a: a + a,
        "sum": lambda a: a.sum(),
        "mean": lambda a: a.mean(),
        "cross_entropy": lambda a: F.cross_entropy(a, labels),
        "nll_loss": lambda a: F.nll_loss(a, labels),
        "cat_with_float32": lambda a: torch.cat([a, x]),
        "add_float32": lambda a: a + x,
    }
    image_ops = {
        "conv2d": lambda a: F.conv2d(a, kernel),
        "batch_norm": lambda a: F.batch_norm(a, torch.zeros(3), torch.ones(3), training=True),
        "max_pool2d": lambda a: F.max_pool2d(a, 2),
    }
    recorded = {}
    for fast in ("default", "float16", "bfloat16", "float32"):
        kwargs = {} if fast == "default" else {"dtype": dtype(fast)}
        for inputs in ("float32", "lower"):
            for table, data, low in ((ops, x, lambda: x @ w), (image_ops, image, lambda: F.conv2d(image, kernel, padding=1))):
                for name, run in table.items():
                    def under_autocast(run=run, data=data, low=low, kwargs=kwargs, inputs=inputs):
                        with torch.autocast("cpu", **kwargs):
                            return run(data if inputs == "float32" else low())
                    recorded[f"{fast}:{inputs}:{name}"] = outcome(under_autocast, values=False)

    def nested():
        with torch.autocast("cpu", dtype=torch.bfloat16):
            with torch.autocast("cpu", enabled=False):
                return x @ w
    recorded["nested:enabled_false"] = outcome(nested, values=False)
    recorded["default_dtype"] = outcome(lambda: torch.get_autocast_dtype("cpu") if hasattr(torch, "get_autocast_dtype")
                                        else torch.get_autocast_cpu_dtype())
    return recorded


def texts():
    i, b = torch.arange(3), torch.tensor([True, False])
    cases = {
        "softmax_long": lambda: torch.softmax(i, 0),
        "softmax_inner_long": lambda: torch.softmax(i.reshape(3, 1), 0),
        "log_softmax_long": lambda: torch.log_softmax(i, 0),
        "gelu_long": lambda: F.gelu(i),
        "layer_norm_long": lambda: F.layer_norm(i, (3,)),
        "mean_long": lambda: i.mean(),
        "relu_bool": lambda: torch.relu(b),
        "sub_bools": lambda: b - b,
        "sub_bool_int": lambda: b - 1,
        "neg_bool": lambda: -b,
        "floor_divide_by_zero": lambda: i // 0,
        "div_bad_mode": lambda: torch.div(i, 2, rounding_mode="round"),
        "inplace_float_into_long": lambda: i.clone().add_(torch.ones(3)),
        "matmul_mixed": lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64),
        "dot_mixed": lambda: torch.ones(2) @ torch.ones(2, dtype=torch.int64),
        "requires_grad_long": lambda: torch.ones(2, dtype=torch.int64).requires_grad_(),
        "randn_long": lambda: torch.randn(2, dtype=torch.int64),
        "autocast_cpu_float64": lambda: _autocast_float64(),
        "nll_loss_long": lambda: F.nll_loss(torch.zeros(2, 3, dtype=torch.int64), torch.tensor([0, 1])),
    }
    return {name: outcome(run) for name, run in cases.items()}


def _autocast_float64():
    with torch.autocast("cpu", dtype=torch.float64):
        return torch.ones(2, 2) @ torch.ones(2, 2)


def printing():
    values = [1.0, 2.5, -3.25, 0.1]
    shown = {name: repr(torch.tensor(values).to(dtype(name))) for name in DTYPES}
    shown["float16_sci"] = repr(torch.tensor([1e-3, 60000.0]).half())
    shown["int8_wraps"] = repr(torch.tensor([100, 120], dtype=torch.int8) * 2)
    shown["uint8_negative"] = repr(torch.tensor([-1.0, 256.0, 3.7]).to(torch.uint8))
    shown["element_size"] = " ".join(str(torch.ones(1, dtype=dtype(name)).element_size()) for name in DTYPES)
    shown["empty_float16"] = repr(torch.ones(0, dtype=torch.float16))
    return shown


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    table, results = promotion()
    capture = {
        "about": {"torch": torch.__version__, "python": platform.python_version(), "system": f"{platform.system()} {platform.machine()}",
                  "mkl": torch.backends.mkl.is_available()},
        "promote_types": table,
        "result_type": results,
        "rounding": rounding(),
        "samplers": samplers(),
        "kernels": kernels(),
        "autocast_cpu": autocast_cpu(),
        "texts": texts(),
        "printing": printing(),
    }
    os.makedirs(sys.argv[1], exist_ok=True)
    path = os.path.join(sys.argv[1], "precision.json")
    with open(path, "w") as out:
        json.dump(capture, out, indent=1, sort_keys=True, ensure_ascii=False)
        out.write("\n")
    print(f"PyTorch {torch.__version__}: precision behaviour recorded in {path}")


if __name__ == "__main__":
    main()
