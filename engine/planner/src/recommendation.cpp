#include "planner/recommendation.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "family_registry.h"

namespace planner {
namespace {

std::string gib(std::int64_t bytes) {
  return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1LL << 30));
}

// "1.10x": two decimals, or as many more as it takes to keep a speedup on its side of the
// runbook's threshold (1.2196 is "1.2196x", never "1.22x, below the runbook's 1.22x").
std::string times(double speedup) {
  int digits = 2;
  for (double scale = 100; digits < 6; ++digits, scale *= 10) {
    if ((std::round(speedup * scale) / scale < kMinimumSpeedup) == (speedup < kMinimumSpeedup))
      break;
  }
  return fmt::format("{:.{}f}x", speedup, digits);
}

}  // namespace

std::string memory_knobs(const ModelConfig& config) {
  return family_of(config).memory_knobs(config);
}

std::string model_state_text(const Prediction& p) {
  if (p.worker_bytes == 0)
    return fmt::format("the weights, their gradients and the optimizer's state alone take {}",
                       gib(p.state_bytes));
  return fmt::format(
      "the weights, their gradients and the optimizer's state take {} and the DataLoader's "
      "workers {}",
      gib(p.state_bytes), gib(p.worker_bytes));
}

namespace {

// The cpu lane (`fact`, then `advice`), unless the cpu's run would swap (prediction.h): then
// elsewhere.
Recommendation cpu_lane(const Prediction& p, const std::string& fact, const std::string& advice) {
  if (p.cpu != CpuRun::Swaps) return {"cpu", {fact + advice}};
  return {"remote",
          {fmt::format("{}, more than the {} this machine has free: train on one with more memory",
                       model_state_text(p), gib(free_memory(*p.machine))),
           fact}};
}

}  // namespace

namespace {

// Where a memory recipe fits the step on mps: mps with it, if mps is then fast enough against the
// cpu (which runs the step as written); else the cpu. `as_written`: why the step as written does
// not fit.
std::optional<Recommendation> with_memory_fix(const Prediction& p, const MemoryFix* fix,
                                              const std::string& as_written) {
  if (fix == nullptr) return std::nullopt;
  const std::string fitting =
      fmt::format("{} fits the step in {} of Metal memory", fix->recipe(), gib(fix->mps.mps_bytes));
  if (!p.cpu_seconds()) return Recommendation{"mps", {fitting, as_written}};
  const double speedup = *p.cpu_seconds() / *fix->mps.mps_seconds();
  if (speedup >= kMinimumSpeedup) {
    return Recommendation{
        "mps",
        {fmt::format("{}, and mps is then {} the cpu", fitting, times(speedup)), as_written}};
  }
  return Recommendation{"cpu",
                        {fmt::format("{}, but mps is then only {} the cpu, below the runbook's "
                                     "{:.2f}x",
                                     fitting, times(speedup), kMinimumSpeedup),
                         as_written}};
}

// Where the step cannot run on mps (no MPS, an operator it refuses, memory it cannot give): the
// lane and why; nothing where it runs.
std::optional<Recommendation> where_mps_cannot(const Prediction& p, const std::string& knobs,
                                               const MemoryFix* memory_fix) {
  const engine::MachineProfile& m = *p.machine;
  const bool no_batch_fits = p.state_bytes > allocator_limit(m);
  switch (p.memory) {
    case MpsMemory::Unavailable:
      return cpu_lane(p, p.why, ": train on the cpu, or on a Mac with MPS");
    case MpsMemory::Unsupported:
      return cpu_lane(p, "the MPS backend refuses a step of this model: " + p.why, "");
    case MpsMemory::OutOfMemory:
    case MpsMemory::BufferTooLarge:
      if (no_batch_fits) {
        return Recommendation{"remote",
                              {fmt::format("{}, more than PyTorch allows on mps ({}): no batch "
                                           "fits; train on a Mac with more memory",
                                           model_state_text(p), gib(allocator_limit(m)))}};
      }
      if (p.memory == MpsMemory::BufferTooLarge)
        return Recommendation{"remote",
                              {"one tensor is longer than Metal's largest buffer: lower " + knobs}};
      if (auto r = with_memory_fix(
              p, memory_fix,
              fmt::format("as written, the step needs more Metal memory than PyTorch allows ({})",
                          gib(allocator_limit(m)))))
        return *r;
      return Recommendation{
          "remote",
          {fmt::format("the step needs more Metal memory than PyTorch allows ({}): halve {}, or "
                       "train on a Mac with more memory",
                       gib(allocator_limit(m)), knobs)}};
    case MpsMemory::Raises:
      return cpu_lane(p, "the step raises an error on mps, not for lack of memory: " + p.why, "");
    case MpsMemory::Swaps:
    case MpsMemory::Fits:
      break;
  }
  return std::nullopt;
}

// Where the cpu's step raises: mps if it runs there, else no device until the model is fixed.
std::optional<Recommendation> where_cpu_raises(const Prediction& p, const std::string& knobs) {
  if (p.cpu != CpuRun::Raises) return std::nullopt;
  if (!p.mps_seconds()) {
    return Recommendation{"none",
                          {"the step raises an error whatever the device, not for lack of "
                           "memory: " +
                               p.cpu_why,
                           "fix the model, or its " + knobs + ", and plan it again"}};
  }
  return Recommendation{"mps",
                        {"the step raises an error on the cpu and runs on mps: " + p.cpu_why}};
}

// Where the cpu cannot hold the model's state: mps if it fits, else a machine with more memory.
Recommendation cpu_swaps(const Prediction& p) {
  const std::string state = fmt::format("{}, more than the {} this machine has free",
                                        model_state_text(p), gib(free_memory(*p.machine)));
  if (p.memory == MpsMemory::Fits) return {"mps", {"the cpu would swap: " + state}};
  return {"remote", {"both devices would swap: " + state + ": train on one with more memory"}};
}

// Where the step swaps: mps only if it is still fast enough, with what to lower.
Recommendation swapping(const Prediction& p, double speedup, const std::string& knobs) {
  const engine::MachineProfile& m = *p.machine;
  Recommendation r;
  r.lane = speedup < kMinimumSpeedup ? "remote" : "mps";
  r.reasons.push_back(
      speedup < kMinimumSpeedup
          ? fmt::format("swapping, mps is only {} the cpu: train on a Mac with more memory",
                        times(speedup))
          : fmt::format("mps is {} the cpu before macOS swaps, which slows it by more "
                        "than the plan can price",
                        times(speedup)));
  // The cpu runs here, so the model's state fits the free memory (a state that does not is
  // cpu_swaps()'s): a smaller step fits.
  r.reasons.push_back(
      fmt::format("the step holds {} of Metal memory where {} are free: lower {} until it fits",
                  gib(p.mps_bytes), gib(free_memory(m)), knobs));
  r.reasons.push_back(fmt::format(
      "the cpu needs at least the model's state, {} of the same {} (its activations on top)",
      gib(p.state_bytes), gib(free_memory(m))));
  return r;
}

// Where the DataLoader's workers are what makes the machine swap (the step's own memory fits
// without them): fewer workers, not another Mac. The lane is mps's unless its step is too slow
// against the cpu's.
std::optional<Recommendation> where_workers_swap(const Prediction& p) {
  const std::int64_t free = free_memory(*p.machine);
  const bool mps_tipped = p.memory == MpsMemory::Swaps && p.mps_bytes <= free;
  const bool cpu_tipped = p.cpu == CpuRun::Swaps && p.state_bytes <= free;
  if (p.worker_bytes == 0 || !(mps_tipped || (cpu_tipped && p.memory == MpsMemory::Fits)))
    return std::nullopt;
  const bool cpu_faster =
      p.cpu_seconds() && p.mps_seconds() && *p.cpu_seconds() / *p.mps_seconds() < kMinimumSpeedup;
  return Recommendation{
      cpu_faster ? "cpu" : "mps",
      {fmt::format("the DataLoader's workers hold {} of the unified memory, and with them the "
                   "step needs more than the {} free, so macOS swaps: fewer workers fit "
                   "(--sweep workers gives each count's step and memory)",
                   gib(p.worker_bytes), gib(free))}};
}

}  // namespace

namespace {

// mps against the cpu with a workers fix's workers on both devices (the cpu's step loads its
// input too), where both steps run with them.
std::optional<double> speedup_with_workers(const WorkersStep* fix) {
  if (fix == nullptr || fix->mps.memory != MpsMemory::Fits) return std::nullopt;
  const Prediction& with = fix->mps;
  if (!with.mps_seconds() || !with.cpu_seconds()) return std::nullopt;
  return *with.cpu_seconds() / *with.mps_seconds();
}

// Where mps loses to the cpu while its step waits for its input: mps, if the workers that hide
// the input make it fast enough; else the cpu, saying that they do not.
Recommendation mps_too_slow(const Prediction& p, const WorkersStep* fix, double speedup) {
  const std::optional<double> with_workers = speedup_with_workers(fix);
  if (with_workers && *with_workers >= kMinimumSpeedup) {
    return {"mps",
            {fmt::format("with num_workers = {} on both devices, mps is {} the cpu; without "
                         "workers its step waits for its batches and is only {} the cpu",
                         fix->num_workers, times(*with_workers), times(speedup))}};
  }
  Recommendation r = cpu_lane(p,
                              fmt::format("mps is only {} the cpu, below the runbook's {:.2f}x",
                                          times(speedup), kMinimumSpeedup),
                              "");
  if (with_workers) {
    r.reasons.push_back(fmt::format(
        "with num_workers = {} on both devices, mps is still only {} the cpu: the workers "
        "shorten the cpu's step too",
        fix->num_workers, times(*with_workers)));
  }
  return r;
}

}  // namespace

Recommendation recommend(const Prediction& p, const std::string& knobs,
                         const WorkersStep* workers_fix, const MemoryFix* memory_fix) {
  if (auto r = where_cpu_raises(p, knobs)) return *r;
  if (auto r = where_mps_cannot(p, knobs, memory_fix)) return *r;
  if (auto r = where_workers_swap(p)) return *r;
  if (p.cpu == CpuRun::Swaps) return cpu_swaps(p);
  const double eager = *p.mps_seconds();
  const double best = p.compiled_seconds ? std::min(eager, *p.compiled_seconds) : eager;
  const double speedup = *p.cpu_seconds() / best;
  Recommendation r;
  if (p.memory == MpsMemory::Swaps) {
    const auto fitted = with_memory_fix(
        p, memory_fix,
        fmt::format("as written, the step holds {} of Metal memory where {} are free, and macOS "
                    "swaps",
                    gib(p.mps_bytes), gib(free_memory(*p.machine))));
    r = fitted ? *fitted : swapping(p, speedup, knobs);
  } else if (speedup < kMinimumSpeedup) {
    r = mps_too_slow(p, workers_fix, speedup);
    if (p.mps_split && p.mps_split->bound() == StepBound::Host)
      r.reasons.push_back(fmt::format(
          "the mps step is host-bound: its GPU idles {:.0f} % of the step, waiting for operators "
          "to be dispatched; a larger batch gives each dispatch more work (--sweep batch shows "
          "where the step turns GPU-bound)",
          100 * p.mps_split->gpu_idle()));
  } else {
    r.lane = "mps";
    r.reasons.push_back(fmt::format("mps is {} the cpu", times(speedup)));
  }
  if (p.compiled_seconds && *p.compiled_seconds > eager) {
    r.reasons.push_back(
        fmt::format("torch.compile makes each step slower here ({:.0f} against {:.0f} ms): turn "
                    "compile off (False in a Python config, false in TOML and JSON)",
                    *p.compiled_seconds * 1e3, eager * 1e3));
  }
  return r;
}

}  // namespace planner
