#pragma once
// The runbook's decision (lesson 7) applied to a prediction: where the model should train on
// this machine, and why. A plan knows times and memory, not how the run will behave for hours,
// so the rules it can apply are the memory limits and the 22 % minimum speedup; lesson 7's
// other triggers (memory growing over epochs, fallbacks in the hot path, bitwise parity) need
// measurements of the real run.

#include <string>
#include <vector>

#include "planner/prediction.h"

namespace planner {

inline constexpr double kMinimumSpeedup = 1.22;  // the runbook's: mps at least 22 % faster

struct Recommendation {
  // "cpu", "mps", "remote" (a machine with more memory) or "none" (the step raises an error)
  std::string lane;
  std::vector<std::string> reasons;  // the first says why that lane; the rest are advice
};

// The config's sizes that set how much memory a step holds, for advice: a GPT's "batch_size or
// block_size", a text encoder's "batch_size or seq_length", an image model's "batch_size or
// image_size", an MLP's "batch_size".
std::string memory_knobs(const ModelConfig& config);

// "the weights, their gradients and the optimizer's state alone take 23.17 GiB" (and what the
// DataLoader's workers hold, where it has them): why no batch_size helps where that is more than
// the machine can hold.
std::string model_state_text(const Prediction& prediction);

// `workers_fix`: where the mps step is input-bound, the fewest DataLoader workers that hide its
// input (prediction.h's workers_hiding_input), whose step the verdict weighs too: a step that
// only waits for its batches is no reason to train on the cpu. `memory_fix`: where the step does
// not fit mps's memory, the recipe that fits it (prediction.h's memory_fix), whose step the
// verdict weighs against the cpu's in place of "train on a Mac with more memory".
Recommendation recommend(const Prediction& prediction,
                         const std::string& knobs = "batch_size or block_size",
                         const WorkersStep* workers_fix = nullptr,
                         const MemoryFix* memory_fix = nullptr);

}  // namespace planner
