// Lab 7 · Decision: the reference solution.

#include <vector>

#include "07_decision/lab.h"

namespace lab {

Decision decide(const Measurements& measured) {
  if (measured.memory_growth > 0.26) return {Choice::Remote, false};
  if (measured.faster_on_mps < 0.22) return {Choice::Cpu, measured.gpu_utilisation < 0.18};
  return {Choice::Mps, false};
}

namespace {

constexpr int kTimedSteps = 5;

// Seconds per step on `device`, after a warm-up step; with `gpu_seconds`, also the GPU's time
// per step, from events around each train().
double seconds_per_step(const Workload& workload, torch::Device device, double* gpu_seconds = nullptr) {
  sim::restart();
  const Step step = workload.build(device);
  const auto wait = [&] {
    if (device.is_mps()) torch::mps::synchronize();
  };
  step.prepare();
  step.train();
  wait();
  std::vector<py::torch::mps::Event> marks;  // on mps: a start and an end around each train()
  const double start = py::time::perf_counter();
  for (int i = 0; i < kTimedSteps; ++i) {
    step.prepare();
    if (gpu_seconds != nullptr) marks.emplace_back(true).record();
    step.train();
    if (gpu_seconds != nullptr) marks.emplace_back(true).record();
  }
  wait();
  const double wall = (py::time::perf_counter() - start) / kTimedSteps;
  if (gpu_seconds != nullptr) {
    double milliseconds = 0;
    for (std::size_t i = 0; i + 1 < marks.size(); i += 2) milliseconds += marks[i].elapsed_time(marks[i + 1]);
    *gpu_seconds = milliseconds / 1e3 / kTimedSteps;
  }
  return wall;
}

double growth_over_ten_epochs(const Workload& workload) {
  sim::restart();
  const Step step = workload.build(torch::Device("mps"));
  std::vector<double> driver_bytes;
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int i = 0; i < workload.steps_per_epoch; ++i) {
      step.prepare();
      step.train();
    }
    py::torch::mps::empty_cache();
    driver_bytes.push_back(static_cast<double>(py::torch::mps::driver_allocated_memory()));
  }
  return driver_bytes.back() / driver_bytes.front() - 1;
}

}  // namespace

Measurements measure(const Workload& workload) {
  Measurements measured;
  const double on_cpu = seconds_per_step(workload, torch::Device("cpu"));
  double gpu = 0;
  const double on_mps = seconds_per_step(workload, torch::Device("mps"), &gpu);
  measured.faster_on_mps = on_cpu / on_mps - 1;
  measured.gpu_utilisation = gpu / on_mps;
  measured.memory_growth = growth_over_ten_epochs(workload);
  return measured;
}

}  // namespace lab
