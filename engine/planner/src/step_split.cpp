#include "planner/step_split.h"

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

StepSplit steady_step(TrainingRun& run, bool on_gpu, int warm_up, int timed) {
  engine::Tensor loss;
  for (int i = 0; i < warm_up; ++i) loss = run.iterate();
  std::optional<engine::sim::TimelineTotals> totals(std::in_place);
  const double from = engine::py::time::perf_counter();
  for (int i = 0; i < timed; ++i) loss = run.iterate();
  const double to = engine::py::time::perf_counter();
  const StepSplit split = split_step(*totals, timed, (to - from) / timed, on_gpu);
  totals.reset();
  loss.item<float>();  // the log line: the process then holds what the last step needed
  return split;
}

}  // namespace planner
