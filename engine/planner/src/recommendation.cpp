#include "planner/recommendation.h"

#include <fmt/format.h>

namespace planner {
namespace {

std::string gib(std::int64_t bytes) {
  return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1LL << 30));
}

}  // namespace

Recommendation recommend(const Prediction& p) {
  const engine::MachineProfile& m = *p.machine;
  switch (p.memory) {
    case MpsMemory::Unavailable:
      return {"cpu", {p.why + ": train on the cpu, or on a Mac with MPS"}};
    case MpsMemory::OutOfMemory:
      return {"remote",
              {fmt::format(
                  "the step needs more Metal memory than PyTorch allows ({}): halve batch_size or "
                  "block_size, or train on a Mac with more memory",
                  gib(allocator_limit(m)))}};
    case MpsMemory::BufferTooLarge:
      return {"remote",
              {"one tensor is longer than Metal's largest buffer: lower batch_size or block_size"}};
    case MpsMemory::Swaps:
    case MpsMemory::Fits:
      break;
  }
  const double eager = *p.mps_seconds;
  const double best = p.compiled_seconds ? std::min(eager, *p.compiled_seconds) : eager;
  const double speedup = p.cpu_seconds / best;
  Recommendation r;
  if (p.memory == MpsMemory::Swaps) {
    r.lane = speedup < kMinimumSpeedup ? "remote" : "mps";
    r.reasons.push_back(
        speedup < kMinimumSpeedup
            ? fmt::format("swapping, mps is only {:.2f}x the cpu: train on a Mac with more memory",
                          speedup)
            : fmt::format("mps is {:.2f}x the cpu even while macOS swaps", speedup));
    r.reasons.push_back(
        fmt::format("the step holds {} of Metal memory where {} are free: lower batch_size or "
                    "block_size until it fits",
                    gib(p.mps_bytes), gib(free_memory(m))));
  } else if (speedup < kMinimumSpeedup) {
    r.lane = "cpu";
    r.reasons.push_back(fmt::format("mps is only {:.2f}x the cpu, below the runbook's {:.2f}x",
                                    speedup, kMinimumSpeedup));
  } else {
    r.lane = "mps";
    r.reasons.push_back(fmt::format("mps is {:.2f}x the cpu", speedup));
  }
  if (p.compiled_seconds && *p.compiled_seconds > eager) {
    r.reasons.push_back(
        fmt::format("torch.compile makes each step slower here ({:.0f} against {:.0f} ms): set "
                    "compile = False",
                    *p.compiled_seconds * 1e3, eager * 1e3));
  }
  return r;
}

}  // namespace planner
