// The classifiers' training loops as the planner runs them (engine/planner: Hugging Face's
// encoders, torchvision's CNNs, MLPs), timed the way each published script timed them.
// Shape-only: every op charges its simulated cost, none computes.
//
// A case's `model` table gives the model and its batch (README.md, "Workloads"). With `steps`,
// the script timed that many steps as one, the first (cold) one included, with no final
// synchronize: seconds. Without, the mean of steady steps after two untimed ones: ms per step.
// `item = 1` reads the loss with item() after every step (a sync on mps), as scripts that log
// or accumulate it as a Python number do.

#include <cstdint>

#include "../workloads.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "planner/training_step.h"

namespace cost_model {
namespace {

double setting(const Case& c, const char* key, double fallback) {
  const auto it = c.model.find(key);
  return it == c.model.end() ? fallback : it->second;
}
std::int64_t integer(const Case& c, const char* key, double fallback) {
  return static_cast<std::int64_t>(setting(c, key, fallback));
}

planner::ModelConfig classifier_config(const Case& c) {
  planner::ModelConfig cfg;
  cfg.name = "cost model case";
  cfg.optimizer = c.optimizer;
  cfg.batch_size = integer(c, "batch", 32);
  cfg.trainable_layers = integer(c, "trainable_layers", -1);
  if (c.op == "mlp") {
    cfg.settings = planner::MlpSettings{c.shapes.front(), setting(c, "dropout", 0)};
  } else if (c.op == "bert" || c.op == "distilbert" || c.op == "vit") {
    planner::EncoderSettings& e = cfg.settings.emplace<planner::EncoderSettings>();
    e.model_type = c.op;
    const bool vit = c.op == "vit";
    // bert-base-cased (lucadiliello's benchmark), distilbert-base-uncased, vit-base-patch16-224
    e.num_hidden_layers = integer(c, "layers", c.op == "distilbert" ? 6 : 12);
    e.hidden_size = integer(c, "hidden", 768);
    e.num_attention_heads = integer(c, "heads", 12);
    e.intermediate_size = integer(c, "intermediate", 3072);
    e.vocab_size = integer(c, "vocab", c.op == "bert" ? 28996 : 30522);
    e.max_position_embeddings = integer(c, "positions", 512);
    e.seq_length = integer(c, "seq", 128);
    e.image_size = integer(c, "image", 224);
    e.patch_size = integer(c, "patch", 16);
    e.num_labels = integer(c, "labels", vit ? 1000 : 2);
    // from_pretrained() leaves a model in eval mode: dropout off unless the case says otherwise
    e.dropout = setting(c, "dropout", 0);
    e.attention_dropout = e.dropout;
    e.attn_implementation = setting(c, "sdpa", 0) != 0 ? "sdpa" : "eager";
  } else {
    cfg.settings = planner::CnnSettings{c.op, integer(c, "image", 224), integer(c, "classes", 10)};
  }
  return cfg;
}

}  // namespace

double classifier(const Case& c) {
  const planner::ModelConfig cfg = classifier_config(c);
  const bool training = setting(c, "training", 1) != 0, read_loss = setting(c, "item", 0) != 0;
  engine::sim::ShapeOnlyGuard shape_only;
  planner::TrainingRun run(cfg, engine::Device(c.device), false);
  const auto step = [&] {
    if (!training) return run.infer();
    const engine::Tensor loss = run.iterate();
    if (read_loss) static_cast<void>(loss.item<float>());
  };
  if (c.model.count("steps") != 0) {
    const double start = engine::py::time::perf_counter();
    for (std::int64_t i = 0; i < integer(c, "steps", 1); ++i) step();
    return engine::py::time::perf_counter() - start;  // seconds
  }
  constexpr int kWarmUp = 2, kTimed = 5;
  for (int i = 0; i < kWarmUp; ++i) step();
  const double start = engine::py::time::perf_counter();
  for (int i = 0; i < kTimed; ++i) step();
  const double seconds = (engine::py::time::perf_counter() - start) / kTimed;
  return c.unit == "s" ? seconds : seconds * 1e3;
}

}  // namespace cost_model
