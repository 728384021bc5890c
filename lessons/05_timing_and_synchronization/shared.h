// %% [markdown] facts="225 ms, 221 ms, 1 µs, 16 µs, 0.3 ms"
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
// **What the clocks here are.** The emulator keeps both timelines. `py::time::perf_counter()`
// reads the simulated host clock, so timings are the same on every run and can be documented.
// A kernel's device time comes from a cost model of the selected machine: its GPU's peak
// arithmetic and memory bandwidth, each at a share that depends on the size and kind of the
// work, checked against published PyTorch timings (for nanoGPT's training step on the M3 Max it
// predicts 225 ms against 221 ms measured). Encoding an operation costs the host about 1 µs
// when PyTorch has a Metal kernel of its own for it and about 16 µs when it runs an MPSGraph,
// and every sync point adds about 0.3 ms for committing the work and hearing that it finished.
// Real runs vary by a few percent from step to step; these do not. Run any lesson with
// `--trace timeline.json` and open the file in [Perfetto](https://ui.perfetto.dev) to see both
// timelines, every kernel and every wait.
//
// The lesson comes in two sections, each a program of its own (`course run 05` runs them in
// order, `course run 05.2` one of them):
//
// 1. **Timing GPU work**: warm-up and synchronization on both sides, a naive timer against an
//    honest one on a real workload, and events on the device's own clock.
// 2. **Sync points in a training loop**: the `loss.item()` that makes every step wait, and
//    where to read numbers back instead.
//
// What follows is what the two sections share, and each includes it: that real workload, a
// transformer encoder, written out below.
//
// Terms the course uses before explaining them are in its glossary: `lesson05_1 --glossary`.

// %%
#pragma once

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
// ## A forward pass big enough to matter
//
// The classifier of lesson 3 averages each report's 128 token vectors and applies one linear
// layer: far too little work to time. A realistic version puts a transformer encoder in front
// of that head: six layers, each with 12-head self-attention and a 3072-wide feed-forward
// block, over the same batch of 32 reports × 128 tokens × 768 features. That is about 42
// million parameters and 360 billion floating-point operations per forward pass.
//
// Computing those numbers here would take this computer minutes per pass, so the sections
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
