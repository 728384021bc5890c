#include "planner/step_split.h"

#include <optional>

#include "planner/training_step.h"

namespace planner {

StepBound StepSplit::bound() const {
  const double device = on_gpu ? gpu : compute;
  if (input >= host() && input >= device) return StepBound::Input;
  return host() >= device ? StepBound::Host : StepBound::Device;
}

std::string StepSplit::bound_name() const {
  switch (bound()) {
    case StepBound::Input:
      return "input-bound";
    case StepBound::Host:
      return "host-bound";
    case StepBound::Device:
      break;
  }
  return on_gpu ? "GPU-bound" : "compute-bound";
}

StepSplit split_step(const engine::sim::TimelineTotals& totals, int iterations, double seconds,
                     bool on_gpu) {
  StepSplit split;
  split.on_gpu = on_gpu;
  split.seconds = seconds;
  const double n = iterations;
  for (const auto& [key, total] : totals.seconds()) {
    const auto& [track, category, name] = key;
    const double per_step = total / n;
    if (track == "mps device") {
      if (category == "kernel" || category == "copy") split.gpu += per_step;
    } else if (track == "host") {
      const bool loading = category == "data" || category == "startup" ||
                           (category == "wait" && name == "wait: DataLoader");
      if (loading) {
        split.input += per_step;
      } else if (category == "wait") {
        split.wait_for_gpu += per_step;
      } else if (category == "cpu" && !on_gpu) {  // on mps, the host's own work
        split.compute += per_step;
      }
    }
  }
  return split;
}

StepSplit weighted(const StepSplit& a, double wa, const StepSplit& b, double wb) {
  const auto part = [&](double StepSplit::*p) { return wa * a.*p + wb * b.*p; };
  StepSplit split;
  split.on_gpu = a.on_gpu;
  split.seconds = part(&StepSplit::seconds);
  split.input = part(&StepSplit::input);
  split.wait_for_gpu = part(&StepSplit::wait_for_gpu);
  split.compute = part(&StepSplit::compute);
  split.gpu = part(&StepSplit::gpu);
  return split;
}

namespace {

// `timed` steps, each reading its loss with item() where `logs`.
StepSplit timed_steps(TrainingRun& run, bool on_gpu, int timed, bool logs) {
  std::optional<engine::sim::TimelineTotals> totals(std::in_place);
  const double from = engine::py::time::perf_counter();
  for (int i = 0; i < timed; ++i) {
    const engine::Tensor loss = run.iterate();
    if (logs) loss.item<float>();
  }
  const double to = engine::py::time::perf_counter();
  return split_step(*totals, timed, (to - from) / timed, on_gpu);
}

}  // namespace

StepSplit steady_step(TrainingRun& run, bool on_gpu, std::int64_t log_interval, int warm_up,
                      int timed) {
  // Each window begins as a step of its kind begins: behind one like it (a step that reads its
  // loss starts on an idle GPU, one that does not behind the GPU work of the one before).
  const bool every_step = log_interval == 1;
  for (int i = 0; i < warm_up; ++i) {
    const engine::Tensor loss = run.iterate();
    if (every_step) loss.item<float>();
  }
  if (every_step) return timed_steps(run, on_gpu, timed, true);
  const StepSplit quiet = timed_steps(run, on_gpu, timed, false);
  run.iterate().item<float>();
  // one step in log_interval reads it
  const double w = 1.0 / static_cast<double>(log_interval);
  return weighted(timed_steps(run, on_gpu, timed, true), w, quiet, 1 - w);
}

}  // namespace planner
