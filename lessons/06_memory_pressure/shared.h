// %% [markdown] facts="16 KiB, 384 KiB"
// # Lesson 6 · Memory pressure on Apple GPUs
//
// A training step needs more memory than its model's weights: the batch, the activations the
// forward pass keeps for the backward pass, one gradient per parameter, the optimizer's state
// and the temporary tensors in between. On an NVIDIA card all of that must fit in the card's
// own memory. On Apple silicon there is no separate video memory: the GPU allocates from the
// same memory as macOS, your browser and your editor. A run can use more than a card of the
// same price would offer, but it competes with everything else on the machine, and when the
// total no longer fits, macOS starts moving memory to the SSD.
//
// PyTorch's MPS backend manages that memory with a **caching allocator**. It asks Metal for
// large blocks (heaps) and carves tensors' buffers out of them; when a tensor dies, its buffer
// stays cached for the next tensor of a similar size instead of going back to the system.
// Three counters let you watch it:
//
// | call | what it counts |
// |---|---|
// | `torch.mps.current_allocated_memory()` | bytes held by live tensors |
// | `torch.mps.driver_allocated_memory()` | everything Metal has allocated for the process: the allocator's heaps, cached buffers included, plus MPS's own |
// | `torch.mps.recommended_max_memory()` | the GPU's recommended working set, which the allocator's limits are multiples of |
//
// and `torch.mps.empty_cache()` hands the cached, unused buffers back to the system.
//
// The lesson comes in two sections, each a program of its own (`course run 06` runs them in
// order, `course run 06.2` one of them):
//
// 1. **The bill and the limits**: what one training step holds, the counters, `del` and
//    `empty_cache()`, a batch grown until MPS refuses, and a tensor too large for any batch.
// 2. **What to do about it**: the allocator's knobs and why they come last, shrinking the
//    work, a table from symptom to first fix, and a leak that is not a leak.
//
// What follows is what the two sections share, and each includes it: the device to use and
// how sizes print.
//
// **What the emulator models.** The allocator follows PyTorch's own algorithm (heap sizes,
// best-fit reuse of cached buffers, the watermarks, garbage collection and the out-of-memory
// error, with PyTorch's texts). Two details are assumptions: buffers are rounded up to whole
// 16 KiB pages, and MPS's own allocations are a fixed 384 KiB. Memory used by cpu tensors is not
// counted against the machine. Large tensors in this lesson are shape-only (lesson 5): the
// simulated Mac holds their gigabytes, this computer does not.
//
// Terms the course uses before explaining them are in its glossary: `lesson06_1 --glossary`.

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

// Bytes in the unit that reads best: "12.00 MiB", "32.00 KiB", "6.00 GiB".
std::string size_text(std::int64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (bytes >= (1LL << 30)) return fmt::format("{:.2f} GiB", b / (1LL << 30));
  if (bytes >= (1LL << 20)) return fmt::format("{:.2f} MiB", b / (1LL << 20));
  return fmt::format("{:.2f} KiB", b / (1LL << 10));
}
// %% [python]
// import os
// import subprocess
// import sys
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
// def size_text(size):
//     """Bytes in the unit that reads best: "12.00 MiB", "32.00 KiB", "6.00 GiB"."""
//     if size >= 1 << 30:
//         return f"{size / (1 << 30):.2f} GiB"
//     if size >= 1 << 20:
//         return f"{size / (1 << 20):.2f} MiB"
//     return f"{size / (1 << 10):.2f} KiB"
