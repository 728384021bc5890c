"""Measures the cpu convolution paths PyTorch's macOS arm64 wheels take, on any machine whose
PyTorch has NNPACK: those wheels have no oneDNN, so a float32 conv2d with a batch of 16 or more
(and padding smaller than the kernel) runs forward through NNPACK, and its backward through
slow_conv_dilated2d's loop over the batch, one image at a time: a matrix product and col2im for
the input's gradient, im2col and a matrix product for the weight's (Convolution.cpp,
use_nnpack and _convolution_backward_nogroup_backend; NaiveDilatedConvolution.cpp). Turning
oneDNN off here makes ATen choose the same backends.

Prints JSON: per layer shape, NNPACK's forward in core cycles per multiply-add of the direct
convolution, and im2col's and col2im's core cycles per column element, each on one thread; and
NNPACK's forward again with every thread, for its scaling. The cost model turns these into
seconds with a Mac's own clock (engine/pytorch/src/machine/cost_model.cpp, Note [The cpu's
convolution]).

Run with PyTorch built with NNPACK (Linux x86-64 and macOS arm64 wheels):
  python3 tests/tools/measure_cpu_convolution.py > FILE.json
It starts itself again for each thread count: NNPACK sizes its thread pool once, at first use."""
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

# VGG's 3 x 3 layers at batch 16 (the smallest batch NNPACK takes), spatial sizes shrunk so a
# single thread finishes in seconds; one in-cache shape for im2col's own cycles.
LAYERS = [  # (in channels, out channels, height = width)
    (3, 64, 56),
    (64, 64, 56),
    (128, 128, 28),
    (256, 256, 28),
    (512, 512, 14),
]
BATCH = 16


def median_seconds(fn, repeats=5):
    fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def clock_hz():
    """The cores' clock as the kernel reports it while busy: the mean of cpuinfo's MHz lines."""
    try:
        with open("/proc/cpuinfo") as f:
            mhz = [float(line.split(":")[1]) for line in f if line.startswith("cpu MHz")]
        return statistics.mean(mhz) * 1e6 if mhz else None
    except OSError:
        return None


def processor_name():
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":")[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor()


def backend_name(x, w, b):
    args = (x, w, b, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
    for extra in ((), (None,)):  # the binding's overloads differ between releases
        try:
            return str(torch._C._select_conv_backend(*args, *extra))
        except (AttributeError, TypeError, RuntimeError) as error:
            failure = "unknown (%s)" % type(error).__name__
    return failure


def measure(threads):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    rows = []
    with torch.backends.mkldnn.flags(enabled=False):
        for cin, cout, size in LAYERS:
            x = torch.randn(BATCH, cin, size, size)
            w = torch.randn(cout, cin, 3, 3)
            b = torch.randn(cout)
            macs = BATCH * cout * cin * 9 * size * size
            forward = median_seconds(lambda: F.conv2d(x, w, b, padding=1))
            row = {"in": cin, "out": cout, "size": size, "batch": BATCH,
                   "backend": backend_name(x, w, b),
                   "nnpack_forward_s": forward, "macs": macs}
            if threads == 1:
                image = x[:1]
                cols = F.unfold(image, 3, padding=1)
                row["column_elements"] = cols.numel()
                row["im2col_s"] = median_seconds(lambda: F.unfold(image, 3, padding=1))
                row["col2im_s"] = median_seconds(
                    lambda: F.fold(cols, (size, size), 3, padding=1))
                g = torch.randn(BATCH, cout, size, size)
                row["backward_s"] = median_seconds(lambda: torch.ops.aten.convolution_backward(
                    g, x, w, [cout], [1, 1], [1, 1], [1, 1], False, [0, 0], 1,
                    [True, True, True]), repeats=3)
                # The backward's two products for one image, to check that the rest of it is
                # im2col and col2im: (cells x out) @ (out x depth) and (out x cells) @ (cells x depth).
                grad = g[0].reshape(cout, -1)
                weights = w.reshape(cout, -1)
                row["backward_products_s"] = BATCH * (
                    median_seconds(lambda: grad.t() @ weights) +
                    median_seconds(lambda: grad @ cols[0].t()))
            rows.append(row)
    return rows


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--threads":
        print(json.dumps(measure(int(sys.argv[2]))))
        return
    if not torch._nnpack_available():
        sys.exit("this PyTorch has no NNPACK: run it where torch._nnpack_available() is True")
    every = os.cpu_count() or 1
    runs = {}
    for threads in (1, every):
        out = subprocess.run([sys.executable, __file__, "--threads", str(threads)],
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        runs[threads] = json.loads(out)
    hz = clock_hz()
    layers = []
    for one, many in zip(runs[1], runs[every]):
        layer = dict(one)
        layer["nnpack_forward_all_threads_s"] = many["nnpack_forward_s"]
        if hz:
            layer["nnpack_cycles_per_mac"] = one["nnpack_forward_s"] * hz / one["macs"]
            layer["im2col_cycles_per_element"] = one["im2col_s"] * hz / one["column_elements"]
            layer["col2im_cycles_per_element"] = one["col2im_s"] * hz / one["column_elements"]
        layer["nnpack_speedup_all_threads"] = one["nnpack_forward_s"] / many["nnpack_forward_s"]
        layers.append(layer)
    print(json.dumps({
        "torch": torch.__version__,
        "machine": platform.machine(),
        "processor": processor_name(),
        "threads": every,
        "clock_hz": hz,
        "layers": layers,
    }, indent=2))


if __name__ == "__main__":
    main()
