// A GPT fine-tuned for classification, as rasbt/LLMs-from-scratch's chapter 6 trains GPT-2 to
// tell spam from ham (train_classifier_simple), timed the way the notebook timed it: one wall
// clock around the whole run. Shape-only, through the planner's nanoGPT (the course's one GPT).
//
// The notebook's loop: each epoch trains on its batches (zero_grad, forward, cross-entropy on the
// last token's logits, backward, the optimizer's step); every `eval_freq` steps, counted from the
// first, evaluate_model() runs `eval_iter` batches of each split forward under no_grad, reading
// each loss with item(); after each epoch calc_accuracy_loader() does the same for the accuracy.
// The model is GPT-2 small with a new two-label output layer on the last token (the planner's
// `num_labels`), and only the last block, the final norm and that layer trained. The book writes
// GELU (GPT-2's tanh form) and attention op by op: the planner's `gelu_new` and `eager`.
//
// Where the planner's GPT still differs from the book's, a case's error includes it: the book
// also writes layer norm op by op (eight kernels where the planner launches one); it does not
// clip gradients; its AdamW is one optimizer over every parameter, not nanoGPT's two groups.

#include <cstdint>

#include "../workloads.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "planner/training_step.h"

namespace cost_model {

double gpt_classifier(const Case& c) {
  // ch06's settings: GPT-2 small (qkv_bias on, as the checkpoint has), the spam dataset's
  // longest message of 120 tokens, batch 8, 130 batches an epoch (drop_last), five epochs.
  planner::ModelConfig gpt2;
  gpt2.batch_size = 8, gpt2.trainable_layers = 1;
  planner::GptSettings& gpt = gpt2.as<planner::GptSettings>();
  gpt.block_size = 120, gpt.vocab_size = 50257, gpt.dropout = 0.0;
  gpt.bias = true, gpt.compile = false;
  gpt.activation_function = "gelu_new", gpt.attn_implementation = "eager";
  auto count = [&](const char* key, std::int64_t fallback) {
    const auto it = c.model.find(key);
    return it == c.model.end() ? fallback : static_cast<std::int64_t>(it->second);
  };
  planner::ModelConfig cfg = gpt_config(c, gpt2);
  cfg.as<planner::GptSettings>().num_labels = count("labels", 2);
  cfg.optimizer = c.optimizer;
  const std::int64_t epochs = count("epochs", 5), steps_per_epoch = count("steps_per_epoch", 130),
                     eval_freq = count("eval_freq", 50);
  const int eval_iter = static_cast<int>(count("eval_iter", 5));

  engine::sim::ShapeOnlyGuard shape_only;
  planner::TrainingRun run(cfg, engine::Device(c.device), false);
  const double start = engine::py::time::perf_counter();
  std::int64_t global_step = -1;
  for (std::int64_t epoch = 0; epoch < epochs; ++epoch) {
    for (std::int64_t step = 0; step < steps_per_epoch; ++step) {
      static_cast<void>(run.iterate());
      if (++global_step % eval_freq == 0) run.estimate_loss(eval_iter);  // evaluate_model
    }
    run.estimate_loss(eval_iter);  // calc_accuracy_loader on each split
  }
  return engine::py::time::perf_counter() - start;  // seconds
}

}  // namespace cost_model
