// %% [markdown]
// # Lesson 7 · Is the Mac worth it?
//
// Lessons 2 to 6 made a training step run correctly on `mps`. The question a team asks next
// is blunter: should this job run on the Mac's GPU at all, or on its cpu, or in Apple's own
// framework MLX, or on a machine somewhere else? "The GPU is faster" is not an answer. A GPU
// wins only when the work is large enough to keep it busy, the data arrives fast enough, the
// memory holds out for hours, and the numbers it produces are trusted.
//
// This lesson turns a practitioner's runbook for that decision into code you can reuse. Its
// method: measure the same step on both devices, find out why the faster one is faster,
// sweep the batch, separate the first epoch from the steady ones, compare results with
// tolerances instead of expecting identical bits, write everything down, and only then
// decide, with thresholds stated in advance. It comes in three sections, each a program of its
// own (`course run 07` runs them in order, `course run 07.2` one of them):
//
// 1. **Speed**: the same step on the cpu and on `mps` across six Macs, why small work loses
//    (fixed costs per operation), and a convolution's cliff on the cpu.
// 2. **The runbook**: its thresholds as code, what besides speed makes a job move, the batch
//    sweep, and the first epoch against the steady ones.
// 3. **Numerics and the logbook**: results that differ in the last bits, tolerances, and the
//    record of a trial run.
//
// What follows is what the three sections share, and each includes it: a model, the
// workloads and the honest timing of a step.
//
// **What the emulator knows here.** Every time below comes from the course's cost model of the
// simulated Mac (lesson 5), checked against published PyTorch timings; the models are
// shape-only, so this computer computes none of the arithmetic. The runbook's three thresholds
// are the runbook author's numbers, quoted as such: your own measurements should replace them.
//
// Terms the course uses before explaining them are in its glossary: `lesson07_1 --glossary`.

// %%
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <engine/notebook/lesson.h>

namespace torch = engine;   // the engine mirrors LibTorch: read torch:: as you would in LibTorch
namespace py = engine::py;  // Python's own, where LibTorch has none: py::str, py::time, py::torch::mps
namespace sim = engine::sim;  // the emulator's controls: its machines, processes, timelines
namespace F = engine::nn::functional;

// The ticket classifier grown wide: `width` features in, two hidden layers of `width`, three
// classes out.
torch::nn::Sequential make_classifier(std::int64_t width) {
  return torch::nn::Sequential{torch::nn::Linear(width, width), torch::nn::ReLU(),
                               torch::nn::Linear(width, width), torch::nn::ReLU(),
                               torch::nn::Linear(width, 3)};
}

struct Workload {
  std::int64_t batch = 32, width = 768;
  double prepare_ms = 0;  // the host's own work per step: reading and tokenizing the next batch
};

// One steady training step, averaged over ten.
struct Timing {
  double step_ms = 0;             // wall time
  double gpu_busy_ms = 0;         // the GPU running kernels and copies
  double encode_ms = 0;           // the host encoding mps operations
  double kernels = 0;             // kernels the GPU ran
  std::int64_t driver_bytes = 0;  // Metal memory held after the steps: the run's peak (heaps stay)
};

// Ten training steps (AdamW) after one warm-up step, timed between two synchronizations.
// Shape-only: the simulated Mac does the arithmetic's timing, this computer none of it.
Timing time_steps(const Workload& w, torch::Device device) {
  if (device.is_mps()) py::torch::mps::empty_cache();  // start from what a fresh run holds
  sim::ShapeOnlyGuard shape_only;
  auto model = make_classifier(w.width);
  model->to(device);
  torch::optim::AdamW optimizer(model->parameters());
  const auto batch = torch::randn({w.batch, w.width}, device);
  const auto labels = torch::zeros({w.batch}, torch::TensorOptions(device).dtype(torch::kInt64));
  auto step = [&] {
    py::time::sleep(w.prepare_ms / 1e3);
    optimizer.zero_grad();
    F::cross_entropy(model(batch), labels).backward();
    optimizer.step();
  };
  step();
  if (device.is_mps()) torch::mps::synchronize();
  sim::TimelineRecording timeline;  // the emulator's profiler view (lesson 8 reads it)
  const double start = py::time::perf_counter();
  for (int i = 0; i < 10; ++i) step();
  if (device.is_mps()) torch::mps::synchronize();
  Timing t{.step_ms = (py::time::perf_counter() - start) * 100};
  for (const auto& span : timeline.spans()) {
    if (span.track == "mps device") t.gpu_busy_ms += span.duration * 100;
    if (span.category == "kernel") t.kernels += 0.1;
    if (span.category == "dispatch") t.encode_ms += span.duration * 100;
  }
  if (device.is_mps()) t.driver_bytes = py::torch::mps::driver_allocated_memory();
  return t;
}
// %% [python]
// import time
// from dataclasses import dataclass
//
// import torch
// import torch.nn.functional as F
//
//
// def make_classifier(width):
//     return torch.nn.Sequential(torch.nn.Linear(width, width), torch.nn.ReLU(), torch.nn.Linear(width, width),
//                                torch.nn.ReLU(), torch.nn.Linear(width, 3))
//
//
// @dataclass
// class Workload:
//     batch: int = 32
//     width: int = 768
//     prepare_ms: float = 0.0  # the host's own work per step: reading and tokenizing the next batch
//
//
// @dataclass
// class Timing:
//     step_ms: float = 0.0
//     gpu_busy_ms: float = 0.0  # from events around the steps: an upper bound of the GPU's busy time
//     driver_bytes: int = 0
//
//
// def time_steps(w, device):
//     """Ten AdamW steps after one warm-up step, timed between two synchronizations. Python has no
//     call for the GPU's busy time: Instruments' Metal System Trace shows it, and events around
//     the steps bound it from above."""
//     on_mps = device.type == "mps"
//     if on_mps:
//         torch.mps.empty_cache()  # start from what a fresh run holds
//     model = make_classifier(w.width).to(device)
//     optimizer = torch.optim.AdamW(model.parameters())
//     batch = torch.randn(w.batch, w.width, device=device)
//     labels = torch.zeros(w.batch, dtype=torch.int64, device=device)
//
//     def step():
//         time.sleep(w.prepare_ms / 1e3)
//         optimizer.zero_grad()
//         F.cross_entropy(model(batch), labels).backward()
//         optimizer.step()
//
//     step()
//     if on_mps:
//         torch.mps.synchronize()
//         first, last = torch.mps.Event(enable_timing=True), torch.mps.Event(enable_timing=True)
//         first.record()
//     start = time.perf_counter()
//     for _ in range(10):
//         step()
//     if not on_mps:
//         return Timing(step_ms=(time.perf_counter() - start) * 100)
//     last.record()
//     torch.mps.synchronize()
//     return Timing((time.perf_counter() - start) * 100, first.elapsed_time(last) / 10,
//                   torch.mps.driver_allocated_memory())
