#pragma once
// What one machine would make of a model: nanoGPT's steady training iteration on its cpu and
// on mps (eager, and compiled when the config compiles), and the Metal memory the mps run holds
// against the machine's limits. Each measurement runs in a fresh simulated process.

#include <engine/machine.h>

#include <cstdint>
#include <optional>
#include <string>

#include "planner/model_config.h"

namespace planner {

enum class MpsMemory {
  Fits,            // within the memory the other applications leave free
  Swaps,           // more than that: macOS pages GPU memory out and the GPU slows down
  OutOfMemory,     // past the MPS allocator's high watermark: PyTorch refuses
  BufferTooLarge,  // one tensor longer than Metal's maximum buffer length
  Unavailable,     // no usable MPS on this machine
};

struct Prediction {
  const engine::MachineProfile* machine = nullptr;
  double cpu_seconds = 0;                  // a steady iteration on the cpu
  std::optional<double> mps_seconds;       // eager, when the step runs on mps
  std::optional<double> compiled_seconds;  // with torch.compile, when the config asks for it
  MpsMemory memory = MpsMemory::Unavailable;
  std::int64_t mps_bytes = 0;  // Metal memory the process holds in the steady state
  std::string why;             // PyTorch's error when mps refused, or why MPS is unusable
};

// The memory the machine's other applications leave free, and the MPS allocator's limit: its
// default high watermark, 1.7 x the recommended working set.
std::int64_t free_memory(const engine::MachineProfile& machine);
std::int64_t allocator_limit(const engine::MachineProfile& machine);

Prediction predict(const ModelConfig& config, const engine::MachineProfile& machine);

}  // namespace planner
