// `course plan --json`: the plan or the sweep as JSON, for other tools: the config first (its
// family's settings, what every family shares, and every value taken from a default), then per
// machine the steps in milliseconds, the Metal memory against the machine's limits, and the
// verdict.

#include <nlohmann/json.hpp>

#include "family_registry.h"
#include "plan_output.h"
#include "planner/recommendation.h"
#include "planner/training_step.h"

namespace planner {
namespace {

nlohmann::json config_json(const ModelConfig& c) {
  nlohmann::json j = family_of(c).settings_json(c);
  j.update({{"name", c.name},
            {"family", family_of(c).name()},
            {"batch_size", c.batch_size},
            {"optimizer", c.optimizer},
            {"gradient_accumulation_steps", c.gradient_accumulation_steps},
            {"gradient_checkpointing", c.gradient_checkpointing},
            {"log_interval", c.log_interval},
            {"trainable_layers",
             c.trainable_layers < 0 ? nlohmann::json("all") : nlohmann::json(c.trainable_layers)},
            {"parameters", parameter_count(c)},
            {"trained_parameters", parameter_count(c, true)},
            {"state_bytes", model_state_bytes(c)},
            {"defaults", defaulted_fields(c)}});
  // A traced model's precision is in its trace, each operator's dtype: its step's own.
  if (family_of(c).read_from_configs()) j["autocast"] = c.autocast;
  return j;
}

const char* memory_name(MpsMemory memory) {
  switch (memory) {
    case MpsMemory::Fits:
      return "fits";
    case MpsMemory::Swaps:
      return "swaps";
    case MpsMemory::OutOfMemory:
      return "out of memory";
    case MpsMemory::BufferTooLarge:
      return "buffer too large";
    case MpsMemory::Unsupported:
      return "not implemented on mps";
    case MpsMemory::Raises:
      return "raises";
    case MpsMemory::Unavailable:
      break;
  }
  return "no mps";
}

const char* cpu_run_name(CpuRun run) {
  switch (run) {
    case CpuRun::Swaps:
      return "swaps";
    case CpuRun::Raises:
      return "raises";
    case CpuRun::Runs:
      break;
  }
  return "runs";
}

nlohmann::json milliseconds_json(std::optional<double> seconds) {
  return seconds ? nlohmann::json(*seconds * 1e3) : nlohmann::json(nullptr);
}

// Where one device's step spends its time (step_split.h), or null where it did not run.
nlohmann::json split_json(const std::optional<StepSplit>& s) {
  if (!s) return nullptr;
  return {{"step_ms", s->seconds * 1e3},
          {"input_ms", s->input * 1e3},
          {"host_ms", s->host() * 1e3},
          {"wait_for_gpu_ms", s->wait_for_gpu * 1e3},
          {"compute_ms", s->compute * 1e3},
          {"gpu_ms", s->gpu * 1e3},
          {"gpu_idle_percent", s->on_gpu ? nlohmann::json(100 * s->gpu_idle()) : nullptr},
          {"bound", s->bound_name()}};
}

// The mps side of a prediction: its memory, against the machine's limits.
nlohmann::json mps_memory_json(const Prediction& p) {
  return {{"memory", memory_name(p.memory)},
          {"mps_bytes", p.mps_bytes},
          {"worker_bytes", p.worker_bytes},
          {"free_bytes", free_memory(*p.machine)},
          {"allocator_limit_bytes", allocator_limit(*p.machine)},
          {"why", p.why}};
}

nlohmann::json sweep_json(const ModelConfig& config, const engine::MachineProfile& machine) {
  const std::vector<SweepStep> steps = sweep_batch(config, machine);
  nlohmann::json rows = nlohmann::json::array();
  for (const SweepStep& s : steps) {
    nlohmann::json row = {
        {"batch_size", s.batch_size},
        {"mps_ms", milliseconds_json(s.mps.mps_seconds())},
        {"samples_per_second", s.mps.mps_seconds() ? nlohmann::json(samples_per_second(config, s))
                                                   : nlohmann::json(nullptr)},
        {"split", split_json(s.mps.mps_split)}};
    row.update(mps_memory_json(s.mps));
    rows.push_back(row);
  }
  const auto largest = largest_without_swap(steps);
  return {
      {"machine", machine.name},
      {"steps", rows},
      {"largest_batch_without_swap", largest ? nlohmann::json(*largest) : nlohmann::json(nullptr)}};
}

// The fewest workers that hide an input-bound mps step (prediction.h), with the step and the
// workers' memory; null where the step is not input-bound or none do.
nlohmann::json workers_fix_json(const std::optional<WorkersStep>& fix) {
  if (!fix) return nullptr;
  return {{"num_workers", fix->num_workers},
          {"mps_ms", milliseconds_json(fix->mps.mps_seconds())},
          {"worker_bytes", fix->mps.worker_bytes}};
}

nlohmann::json memory_fix_json(const std::optional<MemoryFix>& fix) {
  if (!fix) return nullptr;
  return {{"batch_size", fix->batch_size},
          {"gradient_accumulation_steps", fix->gradient_accumulation_steps},
          {"gradient_checkpointing", fix->gradient_checkpointing},
          {"mps_ms", milliseconds_json(fix->mps.mps_seconds())},
          {"mps_bytes", fix->mps.mps_bytes}};
}

nlohmann::json workers_sweep_json(const ModelConfig& config,
                                  const engine::MachineProfile& machine) {
  const std::vector<WorkersStep> steps = sweep_workers(config, machine);
  nlohmann::json rows = nlohmann::json::array();
  for (const WorkersStep& s : steps) {
    nlohmann::json row = {{"num_workers", s.num_workers},
                          {"mps_ms", milliseconds_json(s.mps.mps_seconds())},
                          {"split", split_json(s.mps.mps_split)}};
    row.update(mps_memory_json(s.mps));
    rows.push_back(row);
  }
  const auto fix = workers_hiding_input(steps);
  return {{"machine", machine.name},
          {"steps", rows},
          {"fewest_workers_not_input_bound",
           fix ? nlohmann::json(fix->num_workers) : nlohmann::json(nullptr)}};
}

}  // namespace

void print_workers_sweep_json(const ModelConfig& config, const Machines& machines,
                              std::ostream& out) {
  nlohmann::json sweeps = nlohmann::json::array();
  for (const engine::MachineProfile* machine : machines)
    sweeps.push_back(workers_sweep_json(config, *machine));
  out << nlohmann::json{{"config", config_json(config)}, {"sweeps", sweeps}}.dump(2) << "\n";
}

void print_plan_json(const ModelConfig& config, const Machines& machines, std::ostream& out) {
  nlohmann::json rows = nlohmann::json::array();
  for (const engine::MachineProfile* machine : machines) {
    const Prediction p = predict(config, *machine);
    const auto fix = measured_workers_fix(config, input_bound_sweep(config, p));
    const auto recipe = memory_fix(config, p);
    const Recommendation r =
        recommend(p, memory_knobs(config), fix ? &*fix : nullptr, recipe ? &*recipe : nullptr);
    nlohmann::json row = {
        {"machine", machine->name},
        {"cpu", cpu_run_name(p.cpu)},
        {"cpu_ms", milliseconds_json(p.cpu_seconds())},
        {"cpu_why", p.cpu_why},
        {"mps_ms", milliseconds_json(p.mps_seconds())},
        {"compiled_ms", milliseconds_json(p.compiled_seconds)},
        {"split", {{"cpu", split_json(p.cpu_split)}, {"mps", split_json(p.mps_split)}}},
        {"workers_fix", workers_fix_json(fix)},
        {"memory_fix", memory_fix_json(recipe)},
        {"verdict", r.lane},
        {"reasons", r.reasons}};
    row.update(mps_memory_json(p));
    rows.push_back(row);
  }
  out << nlohmann::json{{"config", config_json(config)}, {"machines", rows}}.dump(2) << "\n";
}

void print_sweep_json(const ModelConfig& config, const Machines& machines, std::ostream& out) {
  nlohmann::json sweeps = nlohmann::json::array();
  for (const engine::MachineProfile* machine : machines)
    sweeps.push_back(sweep_json(config, *machine));
  out << nlohmann::json{{"config", config_json(config)}, {"sweeps", sweeps}}.dump(2) << "\n";
}

}  // namespace planner
