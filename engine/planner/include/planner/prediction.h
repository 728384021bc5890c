#pragma once
// What one machine would make of a model: nanoGPT's steady training iteration on its cpu and
// on mps (eager, and compiled when the config compiles), and the Metal memory the mps run holds
// against the machine's limits. Each measurement runs in a fresh simulated process.

#include <engine/machine.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/model_config.h"
#include "planner/step_split.h"

namespace planner {

enum class MpsMemory {
  Fits,            // within the memory the other applications leave free
  Swaps,           // more than that: macOS pages GPU memory out and the GPU slows down
  OutOfMemory,     // past the MPS allocator's high watermark: PyTorch refuses
  BufferTooLarge,  // one tensor longer than Metal's maximum buffer length
  Unsupported,     // an operator the MPS backend refuses for these shapes (NotImplementedError)
  Unavailable,     // no usable MPS on this machine
  Raises,          // the step raises an error that is not about memory (PyTorch's, in `why`)
};

// The cpu's side. The cpu's memory is not simulated tensor by tensor: what the step holds there
// is bounded below by the model's state and its DataLoader's workers, which a machine that
// cannot hold them would swap.
enum class CpuRun {
  Runs,    // its time is predicted
  Swaps,   // the model's state (with the DataLoader's workers) is more than the machine has free:
           // no time is predicted
  Raises,  // the step raises an error (PyTorch's, in `cpu_why`)
};

struct Prediction {
  const engine::MachineProfile* machine = nullptr;
  std::optional<StepSplit> cpu_split;  // a steady iteration on the cpu, where it runs, part by part
  CpuRun cpu = CpuRun::Runs;
  std::string cpu_why;                     // PyTorch's error where the cpu's step raised
  std::optional<StepSplit> mps_split;      // eager, when the step runs on mps, part by part
  std::optional<double> compiled_seconds;  // with torch.compile, when the config asks for it
  MpsMemory memory = MpsMemory::Unavailable;
  std::int64_t mps_bytes = 0;     // Metal memory the process holds in the steady state
  std::int64_t worker_bytes = 0;  // its DataLoader workers' resident memory, in the same memory
  std::int64_t state_bytes = 0;   // model_state_bytes(): held on either device, whatever the batch
  std::string why;                // PyTorch's error when mps refused, or why MPS is unusable

  // The steps, where they ran.
  std::optional<double> cpu_seconds() const { return seconds_of(cpu_split); }
  std::optional<double> mps_seconds() const { return seconds_of(mps_split); }

 private:
  static std::optional<double> seconds_of(const std::optional<StepSplit>& split) {
    return split ? std::optional<double>(split->seconds) : std::nullopt;
  }
};

// The weights, their gradients and the optimizer's state (SGD's momentum, Adam's two moments), in
// float32: what training holds whatever the batch, on either device, before any activation. A
// lower bound, so a machine that cannot hold it cannot train the model at any batch_size.
std::int64_t model_state_bytes(const ModelConfig& config);

// The memory the machine's other applications leave free, and the MPS allocator's limit: its
// default high watermark, 1.7 x the recommended working set.
std::int64_t free_memory(const engine::MachineProfile& machine);
std::int64_t allocator_limit(const engine::MachineProfile& machine);

Prediction predict(const ModelConfig& config, const engine::MachineProfile& machine);

// One row of the runbook's batch sweep (seed 001, step 3): the steady mps iteration at one
// batch_size and the Metal memory it holds.
struct SweepStep {
  std::int64_t batch_size = 0;
  Prediction mps;  // its cpu_seconds is not measured
};

// The batch sweep on `machine`: batch_size 1, 2, 4, ... on mps until the step swaps, runs out of
// memory or meets a tensor too large for Metal (that row is the last), or batch_size reaches
// `largest`. A batch whose step raises is a row of its own and the sweep goes on (batch norm
// refuses a batch of one sample), unless the batch before it raised too. Where MPS is unusable,
// one row that says why.
std::vector<SweepStep> sweep_batch(const ModelConfig& config, const engine::MachineProfile& machine,
                                   std::int64_t largest = 1 << 16);

// The largest batch_size of a sweep that fits without swapping, if any.
std::optional<std::int64_t> largest_without_swap(const std::vector<SweepStep>& steps);

// One row of the workers sweep: the steady mps iteration with `num_workers` DataLoader workers,
// the Metal memory it holds and the workers' own.
struct WorkersStep {
  std::int64_t num_workers = 0;
  Prediction mps;  // its cpu_seconds is not measured
};

// The workers sweep on `machine`, for a config with an input pipeline: num_workers 0, 1, 2, 4, ...
// up to the machine's performance cores (more only share them), on mps; where MPS is unusable,
// one row that says why. A row that swaps or raises is the last. `planned`: the config's own
// prediction on `machine`, whose mps step is the row of its own num_workers.
std::vector<WorkersStep> sweep_workers(const ModelConfig& config,
                                       const engine::MachineProfile& machine,
                                       const Prediction* planned = nullptr);

// The fewest workers of a sweep whose step is no longer input-bound, without swapping, if any.
std::optional<WorkersStep> workers_hiding_input(const std::vector<WorkersStep>& steps);

// Measures `step`'s cpu step too, with as many workers: what a workers fix's mps step is weighed
// against (the cpu's step loads its input as the mps one does).
void measure_cpu(const ModelConfig& config, WorkersStep& step);

// workers_hiding_input() with its cpu step measured: the fix a plan's verdict weighs.
std::optional<WorkersStep> measured_workers_fix(const ModelConfig& config,
                                                const std::vector<WorkersStep>& steps);

// Where `p`'s mps step is input-bound: the workers sweep on its machine, to find the fewest
// workers that hide the input (plan_text.cpp and plan_json.cpp say what they cost); else empty.
std::vector<WorkersStep> input_bound_sweep(const ModelConfig& config, const Prediction& p);

// A memory recipe (the runbook's gradient accumulation and checkpointing) for a step that swaps
// or needs more Metal memory than PyTorch allows, where the model's state itself fits: the same
// samples a step in smaller micro-batches (batch_size halved and gradient_accumulation_steps
// doubled until the step fits), or each block checkpointed at the batch as written; the faster
// of those that fit, with its mps step. None for a traced model, whose step replays its trace.
struct MemoryFix {
  std::int64_t batch_size = 0;
  std::int64_t gradient_accumulation_steps = 1;
  bool gradient_checkpointing = false;  // the recipe: turn it on, at the batch as written
  Prediction mps;                       // its cpu_seconds is not measured
  // "batch_size 32 with gradient_accumulation_steps 2 (the same 64 samples a step)"
  std::string recipe() const;
};
std::optional<MemoryFix> memory_fix(const ModelConfig& config, const Prediction& p);

// Samples (a GPT's: sequences) trained per second at one step of the sweep, every micro-step's.
double samples_per_second(const ModelConfig& config, const SweepStep& step);

}  // namespace planner
