#pragma once
// A model's training loop on the simulated machine of the current process, shape-only. For a GPT,
// nanoGPT's: model.py's GPT (with or without biases), train.py's loop body with gradient
// accumulation and clipping, its optimizer, and its estimate_loss(); the one nanoGPT of the
// course's tools: `course plan` and the cost model's validation (tests/benchmarks) both run it.
// For the classifiers (an MLP, an encoder, a CNN), the usual loop: the batch copied in,
// forward, backward, the optimizer's step. Times come from the engine's cost model.

#include <engine/engine.h>

#include <cstdint>
#include <memory>

#include "planner/model_config.h"

namespace planner {

// The model's parameters (a GPT's: all but the position embeddings, as model.py's
// get_num_params() counts them), or only those that train.
std::int64_t parameter_count(const ModelConfig& config, bool trained_only = false);

class TrainingRun {
 public:
  // Builds the model and the optimizer on `device` (weights drawn on the cpu, then moved, as
  // train.py does); model = torch.compile(model) when `compiled`.
  TrainingRun(const ModelConfig& config, engine::Device device, bool compiled);
  ~TrainingRun();
  TrainingRun(const TrainingRun&) = delete;
  TrainingRun& operator=(const TrainingRun&) = delete;

  // One iteration: for a GPT, gradient_accumulation_steps forward and backward passes (the next
  // batch copied in behind each forward pass), clipping to 1.0, the optimizer's step, zero_grad;
  // for a classifier, gradient_accumulation_steps batches each copied in, forward, backward
  // (the loss divided by their number), then the optimizer's step and zero_grad.
  engine::Tensor iterate();

  // estimate_loss(): model.eval(), then `eval_iters` batches (a GPT: of each split) under no_grad,
  // each loss read with item(); model.train() again. train.py runs it at iteration 0.
  void estimate_loss(int eval_iters);

  // One batch forward (with the loss) under no_grad, as an inference benchmark runs.
  void infer();

  // What the free parameter_count() above counts, for this run's model.
  std::int64_t parameter_count(bool trained_only) const;

  struct State;  // one family's run (training_step.cpp)

 private:
  std::unique_ptr<State> state_;
};

}  // namespace planner
