// Runs the model's training iterations on one simulated machine and reads its clocks and its
// allocator. Simplifications: cpu memory is not simulated tensor by tensor (PyTorch's cpu tensors
// do not count against the simulated machine; the model's state is checked against its free
// memory instead), and the high watermark is the default one.

#include "planner/prediction.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "family_registry.h"
#include "input_pipeline.h"
#include "planner/step_split.h"
#include "planner/training_step.h"
#include "size_limits.h"

namespace planner {
namespace {

// The steady iteration on `device` in a fresh process on `machine`, shape-only, and the memory
// the machine holds at its end (while the run's DataLoader workers live).
struct SteadyRun {
  StepSplit split;
  engine::sim::MemoryUse memory;
};
SteadyRun run_all_micro_steps(const ModelConfig& config, const engine::MachineProfile& machine,
                              const char* device, bool compiled) {
  engine::sim::use_machine(machine);
  // A fresh process draws a seed of its own, as PyTorch's does; a plan seeds it, so that what a
  // step draws (a DataLoader's shuffle, its augmentation's flips) is the same in every plan.
  engine::manual_seed(0);
  engine::sim::ShapeOnlyGuard shape_only;
  TrainingRun run(config, engine::Device(device), compiled);
  const StepSplit split = steady_step(run, std::string_view(device) == "mps", config.log_interval,
                                      InputPipeline::warm_up_iterations(config.input),
                                      InputPipeline::timed_iterations(config.input));
  return {split, engine::sim::memory_use()};
}

// A step of many micro-steps, from steps of two and three: past the first, each micro-step
// does the same work (a batch in, forward, backward into gradients that already exist), so the
// third's cost is each later one's, and the memory is the three's (the gradients and the
// allocator's blocks are all there after the first). This keeps a plan's time bounded whatever
// gradient_accumulation_steps says; where the step has as few micro-steps as the two shorter
// steps have together, it is timed whole.
constexpr std::int64_t kTimedMicroSteps = 3;
SteadyRun run_steady(const ModelConfig& config, const engine::MachineProfile& machine,
                     const char* device, bool compiled) {
  const std::int64_t k = config.gradient_accumulation_steps;
  if (k <= 2 * kTimedMicroSteps - 1) return run_all_micro_steps(config, machine, device, compiled);
  ModelConfig shorter = config;
  shorter.gradient_accumulation_steps = kTimedMicroSteps - 1;
  const SteadyRun two = run_all_micro_steps(shorter, machine, device, compiled);
  shorter.gradient_accumulation_steps = kTimedMicroSteps;
  SteadyRun three = run_all_micro_steps(shorter, machine, device, compiled);
  // three's, and k - 3 more of what three has over two
  const double more = static_cast<double>(k - kTimedMicroSteps);
  three.split = weighted(two.split, -more, three.split, 1 + more);
  return three;
}

}  // namespace

std::int64_t free_memory(const engine::MachineProfile& machine) {
  return static_cast<std::int64_t>(machine.memory_bytes - machine.other_apps_bytes);
}

std::int64_t model_state_bytes(const ModelConfig& config) {
  const std::int64_t optimizer_slots = config.optimizer == "sgd" ? 1 : 2;
  return 4 * (parameter_count(config) + (1 + optimizer_slots) * parameter_count(config, true));
}

std::int64_t allocator_limit(const engine::MachineProfile& machine) {
  return static_cast<std::int64_t>(1.7 *
                                   static_cast<double>(machine.recommended_working_set_bytes));
}

namespace {

// What an error the mps step raised says about memory: the allocator's two refusals
// (mps/allocator.cpp, in PyTorch's words), or an error of another kind.
MpsMemory memory_error(std::string_view what) {
  if (what.starts_with("Invalid buffer size")) return MpsMemory::BufferTooLarge;
  if (what.starts_with("MPS backend out of memory")) return MpsMemory::OutOfMemory;
  return MpsMemory::Raises;
}

// The cpu part of a prediction: its time, unless the machine cannot hold the model's state or
// the step raises.
void predict_cpu(const ModelConfig& config, const engine::MachineProfile& machine, Prediction& p) {
  if (p.state_bytes > free_memory(machine)) {
    p.cpu = CpuRun::Swaps;
    return;
  }
  try {
    const SteadyRun run = run_steady(config, machine, "cpu", false);
    p.worker_bytes = static_cast<std::int64_t>(run.memory.dataloader_workers);
    if (p.state_bytes + p.worker_bytes > free_memory(machine)) {  // the workers tip it over
      p.cpu = CpuRun::Swaps;
      return;
    }
    p.cpu_split = run.split;
  } catch (const engine::Error& error) {
    p.cpu = CpuRun::Raises;
    p.cpu_why = error.what();
  }
}

// The mps part of a prediction, compiled too where `compiled`: false (with `p.why`) where MPS is
// unusable or refuses the step.
bool predict_mps(const ModelConfig& config, const engine::MachineProfile& machine, bool compiled,
                 Prediction& p) {
  engine::sim::use_machine(machine);
  if (!engine::py::torch::backends::mps::is_built()) {
    p.why = "this PyTorch build has no MPS";
    return false;
  }
  if (!engine::py::torch::backends::mps::is_available()) {
    p.why = "MPS is built but unavailable on " + machine.os_description();
    return false;
  }
  try {
    const SteadyRun run = run_steady(config, machine, "mps", false);
    p.mps_split = run.split;
    p.mps_bytes = static_cast<std::int64_t>(run.memory.mps_driver);
    p.worker_bytes = static_cast<std::int64_t>(run.memory.dataloader_workers);
    if (compiled) p.compiled_seconds = run_steady(config, machine, "mps", true).split.seconds;
  } catch (const engine::NotImplementedError& error) {
    p.why = error.what();
    p.memory = MpsMemory::Unsupported;
    p.mps_split.reset();
    return false;
  } catch (const engine::Error& error) {
    p.why = error.what();
    p.memory = memory_error(p.why);
    p.mps_split.reset();
    return false;
  }
  p.memory =
      p.mps_bytes + p.worker_bytes > free_memory(machine) ? MpsMemory::Swaps : MpsMemory::Fits;
  return true;
}

}  // namespace

Prediction predict(const ModelConfig& config, const engine::MachineProfile& machine) {
  Prediction p;
  p.machine = &machine;
  p.state_bytes = model_state_bytes(config);
  predict_cpu(config, machine, p);
  predict_mps(config, machine, family_of(config).compiles(config), p);
  return p;
}

std::vector<SweepStep> sweep_batch(const ModelConfig& config, const engine::MachineProfile& machine,
                                   std::int64_t largest) {
  std::vector<SweepStep> steps;
  ModelConfig at = config;
  const std::int64_t state_bytes = model_state_bytes(config);
  for (at.batch_size = 1; at.batch_size <= largest; at.batch_size *= 2) {
    SweepStep step;
    step.batch_size = at.batch_size;
    step.mps.machine = &machine;
    step.mps.state_bytes = state_bytes;
    predict_mps(at, machine, /*compiled=*/false, step.mps);  // the sweep compares eager steps
    const bool raised_twice = step.mps.memory == MpsMemory::Raises && !steps.empty() &&
                              steps.back().mps.memory == MpsMemory::Raises;
    steps.push_back(step);
    if (step.mps.memory != MpsMemory::Fits &&
        (step.mps.memory != MpsMemory::Raises || raised_twice))
      break;
  }
  return steps;
}

std::string MemoryFix::recipe() const {
  if (gradient_checkpointing) return "gradient_checkpointing = true";
  return fmt::format(
      "batch_size {} with gradient_accumulation_steps {} (the same {} samples a step)", batch_size,
      gradient_accumulation_steps, batch_size * gradient_accumulation_steps);
}

namespace {

// `at`'s mps step, as a fix's candidate (`fix.gradient_checkpointing`: the recipe is to turn it
// on): whether it fits.
bool fits(const ModelConfig& at, const engine::MachineProfile& machine, MemoryFix& fix) {
  fix.batch_size = at.batch_size;
  fix.gradient_accumulation_steps = at.gradient_accumulation_steps;
  fix.mps.machine = &machine;
  fix.mps.state_bytes = model_state_bytes(at);
  predict_mps(at, machine, /*compiled=*/false, fix.mps);
  return fix.mps.memory == MpsMemory::Fits;
}

}  // namespace

std::optional<MemoryFix> memory_fix(const ModelConfig& config, const Prediction& p) {
  const engine::MachineProfile& machine = *p.machine;
  const bool too_much = p.memory == MpsMemory::OutOfMemory ||
                        (p.memory == MpsMemory::Swaps && p.mps_bytes > free_memory(machine));
  if (!too_much || p.state_bytes > std::min(free_memory(machine), allocator_limit(machine)) ||
      !family_of(config).runs_memory_recipes())
    return std::nullopt;
  std::optional<MemoryFix> best;
  const auto keep = [&](const MemoryFix& fix) {
    if (!best || *fix.mps.mps_seconds() < *best->mps.mps_seconds()) best = fix;
  };
  ModelConfig at = config;
  while (at.batch_size % 2 == 0 && at.gradient_accumulation_steps * 2 <= limits::kMicroSteps) {
    at.batch_size /= 2;
    at.gradient_accumulation_steps *= 2;
    MemoryFix fix;
    if (fits(at, machine, fix)) {
      keep(fix);
      break;
    }
    if (fix.mps.memory == MpsMemory::Raises) break;
  }
  if (!config.gradient_checkpointing) {
    at = config;
    at.gradient_checkpointing = true;
    MemoryFix fix;
    fix.gradient_checkpointing = true;
    if (fits(at, machine, fix)) keep(fix);
  }
  return best;
}

std::optional<std::int64_t> largest_without_swap(const std::vector<SweepStep>& steps) {
  std::optional<std::int64_t> largest;
  for (const SweepStep& s : steps) {
    if (s.mps.memory == MpsMemory::Fits) largest = s.batch_size;
  }
  return largest;
}

std::vector<WorkersStep> sweep_workers(const ModelConfig& config,
                                       const engine::MachineProfile& machine,
                                       const Prediction* planned) {
  std::vector<WorkersStep> steps;
  ModelConfig at = config;
  const std::int64_t cores = static_cast<std::int64_t>(machine.performance_cores());
  const std::int64_t state_bytes = model_state_bytes(config);
  for (std::int64_t workers = 0;; workers = workers == 0 ? 1 : 2 * workers) {
    at.input.num_workers = std::min(workers, cores);
    WorkersStep step;
    step.num_workers = at.input.num_workers;
    step.mps.machine = &machine;
    step.mps.state_bytes = state_bytes;
    if (planned != nullptr && step.num_workers == config.input.num_workers) {
      step.mps = *planned;  // its mps part: a sweep's rows measure no cpu
      step.mps.cpu_split.reset();
      step.mps.cpu = CpuRun::Runs;
      step.mps.cpu_why.clear();
      step.mps.compiled_seconds.reset();
    } else {
      predict_mps(at, machine, /*compiled=*/false, step.mps);
    }
    steps.push_back(step);
    if (step.mps.memory != MpsMemory::Fits || step.num_workers >= cores) break;
  }
  return steps;
}

std::optional<WorkersStep> workers_hiding_input(const std::vector<WorkersStep>& steps) {
  for (const WorkersStep& s : steps) {
    if (s.mps.memory == MpsMemory::Fits && s.mps.mps_split &&
        s.mps.mps_split->bound() != StepBound::Input)
      return s;
  }
  return std::nullopt;
}

void measure_cpu(const ModelConfig& config, WorkersStep& step) {
  ModelConfig at = config;
  at.input.num_workers = step.num_workers;
  predict_cpu(at, *step.mps.machine, step.mps);
}

std::optional<WorkersStep> measured_workers_fix(const ModelConfig& config,
                                                const std::vector<WorkersStep>& steps) {
  std::optional<WorkersStep> fix = workers_hiding_input(steps);
  if (fix) measure_cpu(config, *fix);
  return fix;
}

std::vector<WorkersStep> input_bound_sweep(const ModelConfig& config, const Prediction& p) {
  if (!config.input.reads_samples() || !p.mps_split || p.mps_split->bound() != StepBound::Input)
    return {};
  return sweep_workers(config, *p.machine, &p);
}

double samples_per_second(const ModelConfig& config, const SweepStep& step) {
  return static_cast<double>(step.batch_size * config.gradient_accumulation_steps) /
         *step.mps.mps_seconds();
}

}  // namespace planner
