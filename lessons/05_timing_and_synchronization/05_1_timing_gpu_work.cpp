// %% [markdown]
// # 5.1 · Timing GPU work
//
// How to time work that the GPU does after the host has moved on: warm up, synchronize on both
// sides, then let the GPU's own clock measure it.

// %%
#include "shared.h"  // the transformer encoder, built shape-only

// %% [markdown]
// ## Warm up, then synchronize on both sides
//
// The rule for timing GPU work fits in one listing: run the operation a few times first, wait
// for the device, start the clock, run the measured block, wait for the device again, stop the
// clock. The listing below times ten products of two 256 × 256 matrices that way. It prints
// only facts that hold on any machine, so its output is the same on a Mac and on a Linux box,
// where `best_device()` falls back to the cpu and the synchronization is skipped.

// %% mps_timing
TUTOR_CELL("ten matrix products timed between two synchronizations") {
  const torch::Device device = best_device();
  const auto x = torch::randn({256, 256}, device);
  const auto w = torch::randn({256, 256}, device);

  torch::Tensor y;
  for (int i = 0; i < 3; ++i) y = x.matmul(w);  // warm-up
  if (device.is_mps()) torch::mps::synchronize();

  const double start = py::time::perf_counter();
  for (int i = 0; i < 10; ++i) y = x.matmul(w);
  if (device.is_mps()) torch::mps::synchronize();
  const double elapsed_ms = (py::time::perf_counter() - start) * 1000;

  print("timed matmuls:", 10);
  print("result shape:", py::tuple(y.sizes()));
  print("elapsed is nonnegative:", elapsed_ms >= 0);
}
// %% [output]
// timed matmuls: 10
// result shape: (256, 256)
// elapsed is nonnegative: True
// %% [python]
// device = best_device()
// x = torch.randn(256, 256, device=device)
// w = torch.randn(256, 256, device=device)
//
// for _ in range(3):
//     y = x @ w  # warm-up
// if device.type == "mps":
//     torch.mps.synchronize()
//
// start = time.perf_counter()
// for _ in range(10):
//     y = x @ w
// if device.type == "mps":
//     torch.mps.synchronize()
// elapsed_ms = (time.perf_counter() - start) * 1000
//
// print("timed matmuls:", 10)
// print("result shape:", tuple(y.shape))
// print("elapsed is nonnegative:", elapsed_ms >= 0)

// %% [markdown] facts="0.3 ms, 13.8 ms, 4.5 ms"
// ### Why warm up
//
// The first time an operation meets a new combination of shapes, PyTorch's MPS backend builds
// a compute graph for it and compiles it into GPU code, on the host, before the kernel can be
// queued. It caches the result (per operation and shapes, for the life of the process), so
// the second call is cheap. A timer around a cold first call measures the compiler. The
// emulator charges about 0.3 ms per new graph, a figure derived from a reported ResNet-18 run
// (13.8 ms for the first forward pass, about 4.5 ms once warm); real costs vary with the op.

// %% warm_up requires="mps"
TUTOR_CELL("the first, cold run of an operation pays for building its graph") {
  const torch::Device device("mps");
  const auto x = torch::randn({256, 256}, device);
  const auto w = torch::randn({256, 256}, device);
  auto time_ten_products = [&] {
    torch::mps::synchronize();
    const double start = py::time::perf_counter();
    for (int i = 0; i < 10; ++i) x.matmul(w);
    torch::mps::synchronize();
    return py::time::perf_counter() - start;
  };
  const double cold = time_ten_products();
  const double warm = time_ten_products();
  print("cold:", ms(cold));
  print("warm:", ms(warm));
  print(fmt::format("the cold run took {:.1f}x as long", cold / warm));
}
// %% [output]
// cold: 0.8 ms
// warm: 0.5 ms
// the cold run took 1.6x as long
// %% [output] machine="m1-8gb"
// cold: 1.0 ms
// warm: 0.7 ms
// the cold run took 1.5x as long
// %% [python]
// x = torch.randn(256, 256, device="mps")
// w = torch.randn(256, 256, device="mps")
//
// def time_ten_products():
//     torch.mps.synchronize()
//     start = time.perf_counter()
//     for _ in range(10):
//         x @ w
//     torch.mps.synchronize()
//     return time.perf_counter() - start
//
// cold = time_ten_products()
// warm = time_ten_products()
// print("cold:", ms(cold))
// print("warm:", ms(warm))
// print(f"the cold run took {cold / warm:.1f}x as long")

// %% [markdown] facts="16 µs, 0.3 ms"
// Ten small products keep the GPU busy for far less time than the host needs to queue them
// (about 16 µs each: matrix products run as MPSGraphs) and the final `synchronize()` needs to
// commit them and hear back (about 0.3 ms), so even the warm number is mostly overhead. The next
// workload is the opposite case: the transformer encoder on the lesson's first page
// (`shared.h`), six layers of 12-head self-attention over 32 reports of 128 tokens, about 360
// billion floating-point operations per forward pass, built shape-only.
//
// ## The worked story: a few milliseconds or tens?
//
// Time one forward pass twice, after a warm-up pass. The naive timer reads the clock right
// after the call returns. The honest one synchronizes before starting and before stopping.

// %% naive_vs_synchronized compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("a naive timer measures the queueing, a synchronized one the GPU's work") {
  if (!torch::mps::is_available()) {
    print("no mps device here: every cpu op finishes before it returns, so both timers agree");
    return;
  }
  const WarmEncoder warm;
  torch::mps::synchronize();

  double start = py::time::perf_counter();
  forward(warm.encoder, warm.batch);
  const double naive = py::time::perf_counter() - start;
  torch::mps::synchronize();  // let the naive pass finish before the honest measurement

  start = py::time::perf_counter();
  forward(warm.encoder, warm.batch);
  torch::mps::synchronize();
  const double synchronized = py::time::perf_counter() - start;

  print("naive timer:       ", ms(naive));
  print("synchronized timer:", ms(synchronized));
  CHECK(synchronized > 5 * naive);
}
// %% [output]
// naive timer:        1.0 ms
// synchronized timer: 44.3 ms
// %% [output] machine="m1-8gb"
// naive timer:        1.2 ms
// synchronized timer: 239.5 ms
// %% [output] machine="intel-mac-macos12.0,m2-max-macos13.7,linux-x86_64,rosetta-x86_64"
// no mps device here: every cpu op finishes before it returns, so both timers agree
// %% [python]
// if not torch.backends.mps.is_available():
//     print("no mps device here: every cpu op finishes before it returns, so both timers agree")
// else:
//     encoder, batch = warm_encoder()
//     torch.mps.synchronize()
//
//     start = time.perf_counter()
//     forward(encoder, batch)
//     naive = time.perf_counter() - start
//     torch.mps.synchronize()  # let the naive pass finish before the honest measurement
//
//     start = time.perf_counter()
//     forward(encoder, batch)
//     torch.mps.synchronize()
//     synchronized = time.perf_counter() - start
//
//     print("naive timer:       ", ms(naive))
//     print("synchronized timer:", ms(synchronized))

// %% [markdown]
// Both numbers are true, and they answer different questions. On the M3 Max,
// {{naive_vs_synchronized@m3-max-64gb:naive timer:}} ms is how long the host needs to queue the
// pass; {{naive_vs_synchronized@m3-max-64gb:synchronized timer:}} ms is how long the GPU needs to
// run it. Believe the first and you might go hunting for a slow data loader; the second says the
// model's arithmetic dominates, and that a shorter sequence, a smaller model or fewer layers is
// where time can be won. On the M1 the host's share barely moves
// ({{naive_vs_synchronized@m1-8gb:naive timer:}} ms) while the GPU's grows to
// {{naive_vs_synchronized@m1-8gb:synchronized timer:}} ms: the naive timer cannot tell the two
// machines apart.
//
// ## Events: timing on the device's own clock
//
// `torch.mps.Event(enable_timing=True)` places a marker in the queue. `record()` returns at
// once; `query()` says whether the GPU has reached the marker yet; `elapsed_time()` waits for
// both markers and returns the milliseconds between them. Events time the GPU's work without
// a `synchronize()` in the middle of your loop.

// %% event_timing requires="mps"
TUTOR_CELL("two events around a forward pass time the GPU without synchronizing the loop") {
  const WarmEncoder warm;
  py::torch::mps::Event start(true), end(true);
  start.record();
  forward(warm.encoder, warm.batch);
  end.record();
  print("GPU finished when the host got here:", end.query());
  print("GPU time between the events:", fmt::format("{:.1f} ms", start.elapsed_time(end)));
  print("GPU finished after elapsed_time:", end.query());
}
// %% [output]
// GPU finished when the host got here: False
// GPU time between the events: 44.0 ms
// GPU finished after elapsed_time: True
// %% [output] machine="m1-8gb"
// GPU finished when the host got here: False
// GPU time between the events: 239.2 ms
// GPU finished after elapsed_time: True
// %% [python]
// encoder, batch = warm_encoder()
// start, end = torch.mps.Event(enable_timing=True), torch.mps.Event(enable_timing=True)
// start.record()
// forward(encoder, batch)
// end.record()
// print("GPU finished when the host got here:", end.query())
// print("GPU time between the events:", f"{start.elapsed_time(end):.1f} ms")
// print("GPU finished after elapsed_time:", end.query())
