// nanoGPT's training loop (karpathy/nanoGPT, train.py and model.py) as the planner runs it
// (engine/planner/include/planner/training_step.h: the course's one nanoGPT), timed the way
// seed 003 measured it. Shape-only: every op charges its simulated cost, none computes.
//
// train.py's timing: dt is the wall time from the end of one iteration to the end of the
// next, with no synchronize(); on mps each iteration's batch is a blocking copy to the device
// (train.py pins memory only for cuda), which keeps dt honest, and every 10th iteration reads
// the loss with item() after taking dt. Iteration 0 also runs estimate_loss(): eval_iters
// batches of each split in eval mode under no_grad, each loss read with item().

#include <cstdint>

#include "../workloads.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "planner/training_step.h"

namespace cost_model {
namespace {

// config/train_shakespeare_char.py's model and batch.
planner::ModelConfig shakespeare_char() {
  planner::ModelConfig config;
  config.batch_size = 64;
  planner::GptSettings& gpt = config.as<planner::GptSettings>();
  gpt.n_layer = 6, gpt.n_head = 6, gpt.n_embd = 384, gpt.block_size = 256;
  gpt.vocab_size = 65, gpt.dropout = 0.2;
  return config;
}

// The mean of train.py's dt over iterations 10 to 49 (seed 003 averages iterations 10-50).
double steady_seconds_per_iteration(planner::TrainingRun& run) {
  double t0 = engine::py::time::perf_counter(), total = 0;
  for (int iteration = 0; iteration < 50; ++iteration) {
    const engine::Tensor loss = run.iterate();
    const double t1 = engine::py::time::perf_counter();
    if (iteration >= 10) total += t1 - t0;
    t0 = t1;
    if (iteration % 10 == 0) static_cast<void>(loss.item<float>());  // log_interval = 10
  }
  return total / 40;
}

}  // namespace

planner::ModelConfig gpt_config(const Case& c, planner::ModelConfig config) {
  auto get = [&](const char* key, double fallback) {
    const auto it = c.model.find(key);
    return it == c.model.end() ? fallback : it->second;
  };
  auto count = [&](const char* key, std::int64_t fallback) {
    return static_cast<std::int64_t>(get(key, static_cast<double>(fallback)));
  };
  config.name = "cost model case";
  planner::GptSettings& gpt = config.as<planner::GptSettings>();
  gpt.n_layer = count("layers", gpt.n_layer);
  gpt.n_head = count("heads", gpt.n_head);
  gpt.n_embd = count("embedding", gpt.n_embd);
  gpt.block_size = count("block", gpt.block_size);
  config.batch_size = count("batch", config.batch_size);
  gpt.vocab_size = count("vocab", gpt.vocab_size);
  gpt.dropout = get("dropout", gpt.dropout);
  gpt.compile = get("compile", gpt.compile ? 1 : 0) != 0;
  // GPT-2 as transformers or LLMs-from-scratch write it, where a case says so
  gpt.bias = get("bias", gpt.bias ? 1 : 0) != 0;
  if (get("gelu_new", 0) != 0) gpt.activation_function = "gelu_new";
  if (get("eager", 0) != 0) gpt.attn_implementation = "eager";
  config.trainable_layers = count("trainable_layers", config.trainable_layers);
  return config;
}

double nanogpt(const Case& c) {
  planner::ModelConfig defaults = shakespeare_char();
  defaults.as<planner::GptSettings>().compile = false;
  const planner::ModelConfig cfg = gpt_config(c, defaults);
  const planner::GptSettings& gpt = cfg.as<planner::GptSettings>();
  const int eval_iters =
      static_cast<int>(c.model.count("eval_iters") ? c.model.at("eval_iters") : 200);
  engine::sim::ShapeOnlyGuard shape_only;
  planner::TrainingRun run(cfg, engine::Device(c.device), gpt.compile);
  if (c.op == "nanogpt_first_iteration") {
    const double t0 = engine::py::time::perf_counter();
    run.estimate_loss(eval_iters);
    run.iterate();
    return engine::py::time::perf_counter() - t0;  // seconds
  }
  run.estimate_loss(eval_iters);  // iteration 0, as in train.py; not timed here
  const double dt = steady_seconds_per_iteration(run);
  if (c.op == "nanogpt_mfu") {
    // GPT.estimate_mfu: flops per token 6N + 12 L H Q T, against an A100's 312 TFLOPS of bf16
    const double q = static_cast<double>(gpt.n_embd / gpt.n_head),
                 t = static_cast<double>(gpt.block_size);
    const double per_token = 6 * static_cast<double>(planner::parameter_count(cfg)) +
                             12 * static_cast<double>(gpt.n_layer * gpt.n_head) * q * t;
    return per_token * t * static_cast<double>(cfg.batch_size) / dt / 312e12 * 100;  // percent
  }
  return dt * 1e3;
}

}  // namespace cost_model
