// %% [markdown]
// # Lesson 5 · Timing and synchronization
//
// A line of PyTorch that works on an `mps` tensor does not do the work. It encodes a kernel
// into a command buffer, hands it to the GPU's queue and returns, usually long before the GPU
// has even started. The host (your Python or C++ thread) and the device then run side by side,
// each on its own clock, and they meet only where the host needs something the device has not
// produced yet. Those meetings are the **sync points**:
//
// | the host calls | why it must wait |
// |---|---|
// | `torch.mps.synchronize()` | that is its whole job: wait until the queue is empty |
// | `loss.item()`, `t.tolist()` | a Python number needs the finished value |
// | `t.cpu()`, `t.to("cpu")`, `t.cpu().numpy()` | the copy must see the finished tensor |
// | `print(t)` | printing reads the values |
// | `t.to("mps")` from the cpu | a blocking copy: PyTorch waits until it has landed |
// | `torch.mps.empty_cache()` | buffers in use by queued kernels cannot be released |
// | `event.synchronize()`, `event.elapsed_time(...)` | they wait for the event's point in the queue |
//
// Everything else, including a whole forward and backward pass, only queues work. CUDA works
// the same way; the timing habits you learned there carry over, with `torch.mps` in place of
// `torch.cuda`.
//
// **What the clocks here are.** The emulator keeps both timelines. `time::perf_counter()`
// reads the simulated host clock, so timings are the same on every run and can be documented.
// A kernel's device time comes from a cost model of the selected machine: its GPU's peak
// arithmetic and memory bandwidth, each at a share that depends on the size and kind of the
// work, checked against published PyTorch timings (for nanoGPT's training step on the M3 Max it
// predicts 226 ms against 221 ms measured). Encoding an operation costs the host about 1 µs
// when PyTorch has a Metal kernel of its own for it and about 16 µs when it runs an MPSGraph,
// and every sync point adds about 0.3 ms for committing the work and hearing that it finished.
// Real runs vary by a few percent from step to step; these do not. Run any lesson with
// `--trace timeline.json` and open the file in [Perfetto](https://ui.perfetto.dev) to see both
// timelines, every kernel and every wait.
//
// Terms the course uses before explaining them are in its glossary: `lesson05 --glossary`.

// %%
#include <cstdint>
#include <string>
#include <vector>

#include <engine/notebook/lesson.h>

namespace torch = engine;   // the engine mirrors LibTorch: read torch:: as you would in LibTorch
namespace py = engine::py;  // Python's own, where LibTorch has none: py::str, py::time, py::torch::mps
namespace sim = engine::sim;  // the emulator's controls: its machines, processes, timelines
namespace F = engine::nn::functional;

torch::Device best_device() {
  return torch::mps::is_available() ? torch::Device("mps") : torch::Device("cpu");
}

// A duration from perf_counter() differences, printed in milliseconds.
std::string ms(double seconds) { return fmt::format("{:.1f} ms", seconds * 1e3); }
// %% [python]
// import time
//
// import torch
// import torch.nn.functional as F
//
//
// def best_device():
//     return torch.device("mps") if torch.backends.mps.is_available() else torch.device("cpu")
//
//
// def ms(seconds):
//     return f"{seconds * 1e3:.1f} ms"

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

// %% [markdown]
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

// %% [markdown]
// Ten small products keep the GPU busy for far less time than the host needs to queue them
// (about 16 µs each: matrix products run as MPSGraphs) and the final `synchronize()` needs to
// commit them and hear back (about 0.3 ms), so even the warm number is mostly overhead. The next
// workload is the opposite case.
//
// ## A forward pass big enough to matter
//
// The classifier of lesson 3 averages each report's 128 token vectors and applies one linear
// layer: far too little work to time. A realistic version puts a transformer encoder in front
// of that head: six layers, each with 12-head self-attention and a 3072-wide feed-forward
// block, over the same batch of 32 reports × 128 tokens × 768 features. That is about 42
// million parameters and 360 billion floating-point operations per forward pass.
//
// Computing those numbers here would take this computer minutes per pass, so the cells below
// build the encoder **shape-only** (`sim::ShapeOnlyGuard`): every tensor has its shape, device
// and cost, and every kernel, copy and wait happens on the simulated timelines, but no
// arithmetic is done. PyTorch's `meta` device is the same idea, without the clocks. Reading a
// shape-only value with `item()` still waits like the real thing; it returns `nan`, because
// there is no value to read.

// %%
struct EncoderLayer {
  torch::Tensor norm1, qkv, qkv_bias, out, out_bias, norm2, up, up_bias, down, down_bias;
};

struct IssueEncoder {
  std::vector<EncoderLayer> layers;
  torch::Tensor head, head_bias;

  std::vector<torch::Tensor> parameters() const {
    std::vector<torch::Tensor> all{head, head_bias};
    for (const EncoderLayer& l : layers) {
      all.insert(all.end(), {l.norm1, l.qkv, l.qkv_bias, l.out, l.out_bias, l.norm2, l.up,
                             l.up_bias, l.down, l.down_bias});
    }
    return all;
  }
};

constexpr std::int64_t kReports = 32, kTokens = 128, kWidth = 768, kHeads = 12, kLayers = 6;

torch::Tensor parameter(torch::IntArrayRef shape, torch::Device device) {
  return (torch::randn(shape, device) * 0.02).requires_grad_();
}

IssueEncoder make_encoder(torch::Device device) {
  IssueEncoder m;
  for (std::int64_t i = 0; i < kLayers; ++i) {
    m.layers.push_back({torch::ones({kWidth}, device).requires_grad_(),
                        parameter({3 * kWidth, kWidth}, device), parameter({3 * kWidth}, device),
                        parameter({kWidth, kWidth}, device), parameter({kWidth}, device),
                        torch::ones({kWidth}, device).requires_grad_(),
                        parameter({4 * kWidth, kWidth}, device), parameter({4 * kWidth}, device),
                        parameter({kWidth, 4 * kWidth}, device), parameter({kWidth}, device)});
  }
  m.head = parameter({3, kWidth}, device);
  m.head_bias = parameter({3}, device);
  return m;
}

// One of q, k, v from the fused projection: (reports, tokens, 3 x width) -> (reports, heads,
// tokens, width / heads).
torch::Tensor split_heads(const torch::Tensor& qkv, std::int64_t which) {
  return qkv.slice(2, which * kWidth, (which + 1) * kWidth)
      .reshape({kReports, kTokens, kHeads, kWidth / kHeads})
      .transpose(1, 2);
}

// Pre-norm transformer layers, then the three-way head on the averaged tokens: (32, 3) logits.
torch::Tensor forward(const IssueEncoder& m, torch::Tensor x) {
  for (const EncoderLayer& l : m.layers) {
    const auto qkv = F::linear(F::layer_norm(x, F::LayerNormFuncOptions({kWidth}).weight(l.norm1)), l.qkv, l.qkv_bias);
    const auto attended = torch::scaled_dot_product_attention(split_heads(qkv, 0), split_heads(qkv, 1), split_heads(qkv, 2));
    x = x + F::linear(attended.transpose(1, 2).reshape({kReports, kTokens, kWidth}), l.out, l.out_bias);
    const auto h = F::layer_norm(x, F::LayerNormFuncOptions({kWidth}).weight(l.norm2));
    x = x + F::linear(F::gelu(F::linear(h, l.up, l.up_bias)), l.down, l.down_bias);
  }
  return F::linear(x.mean({1}), m.head, m.head_bias);
}

// The encoder and one batch on mps, shape-only, after a warm-up pass: where the timing cells
// below start.
struct WarmEncoder {
  sim::ShapeOnlyGuard shape_only;
  IssueEncoder encoder = make_encoder(torch::Device("mps"));
  torch::Tensor batch = torch::randn({kReports, kTokens, kWidth}, torch::Device("mps"));
  WarmEncoder() { forward(encoder, batch); }
};
// %% [python]
// REPORTS, TOKENS, WIDTH, HEADS, LAYERS = 32, 128, 768, 12, 6
//
//
// def parameter(*shape, device):
//     return torch.nn.Parameter(torch.randn(*shape, device=device) * 0.02)
//
//
// class EncoderLayer(torch.nn.Module):
//     def __init__(self, device):
//         super().__init__()
//         self.norm1 = torch.nn.Parameter(torch.ones(WIDTH, device=device))
//         self.qkv, self.qkv_bias = parameter(3 * WIDTH, WIDTH, device=device), parameter(3 * WIDTH, device=device)
//         self.out, self.out_bias = parameter(WIDTH, WIDTH, device=device), parameter(WIDTH, device=device)
//         self.norm2 = torch.nn.Parameter(torch.ones(WIDTH, device=device))
//         self.up, self.up_bias = parameter(4 * WIDTH, WIDTH, device=device), parameter(4 * WIDTH, device=device)
//         self.down, self.down_bias = parameter(WIDTH, 4 * WIDTH, device=device), parameter(WIDTH, device=device)
//
//
// class IssueEncoder(torch.nn.Module):
//     def __init__(self, device):
//         super().__init__()
//         self.layers = torch.nn.ModuleList(EncoderLayer(device) for _ in range(LAYERS))
//         self.head, self.head_bias = parameter(3, WIDTH, device=device), parameter(3, device=device)
//
//
// def split_heads(qkv, which):
//     part = qkv[:, :, which * WIDTH:(which + 1) * WIDTH]
//     return part.reshape(REPORTS, TOKENS, HEADS, WIDTH // HEADS).transpose(1, 2)
//
//
// def forward(m, x):
//     for l in m.layers:
//         qkv = F.linear(F.layer_norm(x, (WIDTH,), l.norm1), l.qkv, l.qkv_bias)
//         attended = F.scaled_dot_product_attention(split_heads(qkv, 0), split_heads(qkv, 1), split_heads(qkv, 2))
//         x = x + F.linear(attended.transpose(1, 2).reshape(REPORTS, TOKENS, WIDTH), l.out, l.out_bias)
//         h = F.layer_norm(x, (WIDTH,), l.norm2)
//         x = x + F.linear(F.gelu(F.linear(h, l.up, l.up_bias)), l.down, l.down_bias)
//     return F.linear(x.mean(1), m.head, m.head_bias)
//
//
// def warm_encoder():
//     """The encoder and a batch on mps, after one forward pass has built every graph."""
//     encoder = IssueEncoder(torch.device("mps"))
//     batch = torch.randn(REPORTS, TOKENS, WIDTH, device="mps")
//     forward(encoder, batch)
//     return encoder, batch

// %% [markdown]
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
// naive timer:        0.9 ms
// synchronized timer: 44.3 ms
// %% [output] machine="m1-8gb"
// naive timer:        1.1 ms
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
// Both numbers are true, and they answer different questions. 0.9 ms is how long the host needs
// to queue the pass; 44.3 ms is how long the GPU needs to run it. Believe the first and you
// might go hunting for a slow data loader; the second says the model's arithmetic dominates,
// and that a shorter sequence, a smaller model or fewer layers is where time can be won. On the
// M1 (its documented output is under this one's) the host's share barely moves (1.1 ms) while
// the GPU's grows to 240 ms: the naive timer cannot tell the two machines apart.
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

// %% [markdown]
// ## The hidden sync point in a training loop
//
// Training adds a backward pass and an optimizer step, and a loop around them. Each step
// below also prepares the next batch on the cpu first: reading, tokenizing and padding 32
// reports, pure Python work that takes the host 20 ms here (`time::sleep` stands in for it).
// The batch is copied to the GPU, and every step ends with AdamW.
//
// The question is how often the loop reads the loss. `loss.item()` every step is the habit
// most scripts start with, because a progress bar wants a number. But each `item()` makes the
// host wait for the step to finish, so the next batch is prepared while the GPU sits idle.
// Reading it every 50 steps lets the host prepare batch *n + 1* while the GPU still works on
// batch *n*. (Copying that batch to the GPU is a sync point too, but it comes after the
// preparation, so the preparation still overlaps the GPU's work.)

// %%
// Trains `steps` steps and reads the loss every `log_every` steps; returns seconds per step.
double seconds_per_step(int steps, int log_every) {
  py::torch::mps::empty_cache();  // each measurement starts without the last one's cached memory
  sim::ShapeOnlyGuard shape_only;
  const torch::Device device("mps");
  const IssueEncoder encoder = make_encoder(device);
  torch::optim::AdamW optimizer(encoder.parameters());
  const auto labels = torch::zeros({kReports}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  double logged = 0;

  const double start = py::time::perf_counter();
  for (int step = 0; step < steps; ++step) {
    py::time::sleep(0.020);  // prepare the next batch on the cpu
    const auto batch = torch::randn({kReports, kTokens, kWidth}).to(device);
    optimizer.zero_grad();
    const auto loss = F::cross_entropy(forward(encoder, batch), labels);
    loss.backward();
    optimizer.step();
    if ((step + 1) % log_every == 0) logged = loss.item<double>();  // the sync point
  }
  torch::mps::synchronize();
  static_cast<void>(logged);  // shape-only: nan, but the wait was real
  return (py::time::perf_counter() - start) / steps;
}
// %% [python]
// def seconds_per_step(steps, log_every):
//     torch.mps.empty_cache()  # each measurement starts without the last one's cached memory
//     device = torch.device("mps")
//     encoder = IssueEncoder(device)
//     optimizer = torch.optim.AdamW(encoder.parameters())
//     labels = torch.zeros(REPORTS, dtype=torch.int64, device=device)
//     logged = 0.0
//
//     start = time.perf_counter()
//     for step in range(steps):
//         time.sleep(0.020)  # prepare the next batch on the cpu
//         batch = torch.randn(REPORTS, TOKENS, WIDTH).to(device)
//         optimizer.zero_grad()
//         loss = F.cross_entropy(forward(encoder, batch), labels)
//         loss.backward()
//         optimizer.step()
//         if (step + 1) % log_every == 0:
//             logged = loss.item()  # the sync point
//     torch.mps.synchronize()
//     return (time.perf_counter() - start) / steps

// %% hidden_sync_point requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("reading the loss every step costs the overlap of cpu and GPU work") {
  const double every_step = seconds_per_step(100, 1);
  const double every_50 = seconds_per_step(100, 50);
  print("loss.item() every step:    ", ms(every_step), "per step");
  print("loss.item() every 50 steps:", ms(every_50), "per step");
  print(fmt::format("the hidden sync point costs {:.0f} %", 100 * (every_step / every_50 - 1)));
  CHECK(every_step > every_50);
}
// %% [output]
// loss.item() every step:     192.2 ms per step
// loss.item() every 50 steps: 157.0 ms per step
// the hidden sync point costs 22 %
// %% [output] machine="m1-8gb"
// loss.item() every step:     869.3 ms per step
// loss.item() every 50 steps: 830.1 ms per step
// the hidden sync point costs 5 %
// %% [python]
// every_step = seconds_per_step(100, 1)
// every_50 = seconds_per_step(100, 50)
// print("loss.item() every step:    ", ms(every_step), "per step")
// print("loss.item() every 50 steps:", ms(every_50), "per step")
// print(f"the hidden sync point costs {100 * (every_step / every_50 - 1):.0f} %")

// %% [markdown]
// The cost is the cpu work that no longer overlaps: the 20 ms of preparation and the 15 ms
// `randn` takes to draw the batch's three million values on one cpu core, 35 ms per step. On
// the M1, in the output under this one's, the same work (39 ms on its slower cores) is only 5 %
// of a step of almost 0.9 s: its GPU is slower. A hidden sync point hurts most where the GPU is
// fast and the host has real work to do between steps.
//
// The fix is a logging boundary you choose: keep what you want to report on the device and
// bring it back rarely. A running sum of detached losses costs one tiny kernel per step and
// no waiting; `.detach().cpu().item()` every 50 steps turns it into a number for the log.

// %% logging_boundary
TUTOR_CELL("a running loss stays on the device and is read once per logging interval") {
  const torch::Device device = best_device();
  auto running = torch::zeros({}, device);
  const auto start = torch::full({}, 2.5, device);
  for (int step = 1; step <= 100; ++step) {
    // Stands in for a step's loss, computed on the device as a real one is: torch::tensor(x,
    // device) here would copy from the cpu every step, itself a sync point.
    const auto loss = start - 0.01 * step;
    running = running + loss.detach();
    if (step % 50 == 0) {
      print(fmt::format("step {}: mean loss {:.3f}", step, running.detach().cpu().item<double>() / 50));
      running = torch::zeros({}, device);
    }
  }
}
// %% [output]
// step 50: mean loss 2.245
// step 100: mean loss 1.745
// %% [python]
// device = best_device()
// running = torch.zeros((), device=device)
// start = torch.full((), 2.5, device=device)
// for step in range(1, 101):
//     loss = start - 0.01 * step  # stands in for a step's loss, computed on the device
//     running = running + loss.detach()
//     if step % 50 == 0:
//         print(f"step {step}: mean loss {running.detach().cpu().item() / 50:.3f}")
//         running = torch.zeros((), device=device)

// %% [markdown]
// ## What to take away
//
// - A timer around GPU work measures nothing until the host waits for the device: warm up,
//   `synchronize()`, start, run, `synchronize()`, stop. Or use events.
// - The first call with new shapes is slow: measure after a warm-up, and label first-epoch
//   numbers as such.
// - `item()`, `.cpu()`, printing and copies from the cpu are sync points. Each one in a hot
//   loop removes the overlap between the host's work and the GPU's.
// - Choose the logging boundary: accumulate on the device, read every N steps.
//
// ## Next
//
// Check yourself: `build/quizzes/quiz take lesson05`. Practise it in lab 5: edit
// `labs/05_timing/lab.cpp` until `build/course verify 05` passes (`build/course hint 05` gives
// one hint at a time). Then lesson 6, `build/lessons/lesson06`, follows where a training step's
// memory goes and what happens when it runs out.
