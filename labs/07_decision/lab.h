#pragma once
// Lab 7 · Decision. The practitioner's runbook of lesson 7 decides between the cpu, mps and a
// dedicated remote machine from three measurements: how much faster a step is on mps, how busy
// the GPU is, and how the memory grows over ten epochs. Measure them, apply its thresholds, and
// see where the course's own workloads land.

#include <functional>
#include <string>

#include <engine/engine.h>

namespace torch = engine;  // read torch:: as in LibTorch: only the names LibTorch has
namespace sim = engine::sim;  // the emulator's controls: its machines and processes
namespace py = engine::py;  // Python's own API, where LibTorch has none: py::time, py::torch::mps

namespace lab {

struct Measurements {
  // How much faster a step is on mps, as a fraction like the other two: cpu step time / mps step
  // time - 1, so 0.22 means 22 % faster. Lesson 7's speedup is the ratio itself: 1.22 there is
  // 0.22 here.
  double faster_on_mps = 0;
  double gpu_utilisation = 0;  // the share of an mps step's wall time the GPU works: 0.18 is 18 %
  double memory_growth = 0;    // driver memory, epoch 10 over epoch 1, minus 1: 0.26 is 26 %
};

enum class Choice { Cpu, Mps, Remote };

struct Decision {
  Choice choice = Choice::Cpu;
  bool fix_data_plane_first = false;  // mps is slow because the GPU waits for the host
};

// The runbook's rules, in this order; each threshold is crossed only beyond it:
//   1. memory grows more than 26 % over ten epochs: Remote (suspect retained tensors, and plan a
//      dedicated host);
//   2. mps is less than 22 % faster than the cpu: Cpu; if the GPU also works less than 18 % of
//      the step, the data plane and the batch are the problem: fix them first;
//   3. otherwise: Mps.
Decision decide(const Measurements& measured);

// One training step: the host prepares a batch (reading, tokenizing), then the step trains.
struct Step {
  std::function<void()> prepare;
  std::function<void()> train;
};

struct Workload {
  std::string name;
  int steps_per_epoch = 1;
  // Builds the workload (model, optimizer, data) in the current simulated process on `device`.
  std::function<Step(torch::Device)> build;
};

// Measures a workload on this machine, which must have MPS, each part in a fresh simulated
// process (sim::restart()):
//   faster_on_mps: one warm-up step, then the wall time of five steps (prepare and train), timed
//            between two synchronizations, on the cpu and on mps;
//   gpu_utilisation: in the mps run, the GPU's time for each train() (two mps::Events around it)
//            over the wall time of the step;
//   memory_growth: ten epochs on mps, driver_allocated_memory() after empty_cache() at the end of
//            each, the tenth over the first.
Measurements measure(const Workload& workload);

}  // namespace lab
