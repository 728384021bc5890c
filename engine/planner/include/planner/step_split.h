#pragma once
// Where a steady training step's time goes, read off the engine's timeline the way the runbook
// reads a profile (seed 001: time the data alone, then the forward pass alone): loading its input,
// the host's own work, the host blocked on the GPU, and the device's work; and which of them
// bounds the step.

#include <engine/timeline.h>

#include <cstdint>
#include <string>

namespace planner {

class TrainingRun;

enum class StepBound { Input, Host, Device };

// One steady step, each part in seconds, averaged over the timed iterations.
struct StepSplit {
  bool on_gpu = false;      // the step ran on mps
  double seconds = 0;       // the step, from the end of one iteration to the end of the next
  double input = 0;         // loading batches in the training process, waiting for a DataLoader's
                            // workers, or starting them
  double wait_for_gpu = 0;  // the host blocked on the GPU: item(), a blocking copy, synchronize
  double compute = 0;       // the cpu's operators, when the step runs on the cpu (in an mps
                            // step, those the host runs are its own work)
  double gpu = 0;           // the GPU's kernels and copies, when it runs on mps (while the host
                            // works on, so not a part of `seconds`)

  // The host's own work: dispatching operators, autograd, the optimizer's loop, views, compiling.
  double host() const { return seconds - input - wait_for_gpu - compute; }
  // The share of the step in which the GPU did nothing (mps).
  double gpu_idle() const { return seconds > 0 ? 1 - gpu / seconds : 0; }
  // The largest of the input, the host's work and the device's (the GPU's, or the cpu's
  // operators), ties in that order.
  StepBound bound() const;
  // "input-bound", "host-bound", "GPU-bound" or "compute-bound" (the cpu's operators).
  std::string bound_name() const;
};

// The split of `iterations` steady steps of `seconds` each from the time their spans took (each
// counted where it was recorded: in a steady loop, the GPU work queued in a step is the work it
// runs in one).
StepSplit split_step(const engine::sim::TimelineTotals& totals, int iterations, double seconds,
                     bool on_gpu);

// wa x a + wb x b, part by part: a mean of two kinds of step, or a step grown by more of what
// one step has over another.
StepSplit weighted(const StepSplit& a, double wa, const StepSplit& b, double wb);

// The steady step of a loop that reads its loss with item() every `log_interval` steps: after
// `warm_up` untimed steps, `timed` ones that read it, each timed from the end of the one before
// to its own end (on mps, item() waits for the GPU, which then idles while the host prepares the
// next step), and where log_interval is more than 1, `timed` that do not (the blocking batch
// copies keep them honest on mps); the mean of one of the first for log_interval - 1 of the
// others, each split by the timeline recorded over them.
StepSplit steady_step(TrainingRun& run, bool on_gpu, std::int64_t log_interval, int warm_up = 2,
                      int timed = 3);

}  // namespace planner
