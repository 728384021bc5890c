// nanoGPT's training loop (karpathy/nanoGPT, train.py and model.py) on the engine: the GPT of
// model.py (pre-norm blocks, causal self-attention, GELU MLP, tied embedding and output
// weights, no biases), AdamW with weight decay on matrices only, gradients clipped to 1.0.
// Shape-only: every op charges its simulated cost, none computes.
//
// train.py's timing: dt is the wall time from the end of one iteration to the end of the
// next, with no synchronize(); on mps each iteration's batch is a blocking copy to the device
// (train.py pins memory only for cuda), which keeps dt honest, and every 10th iteration reads
// the loss with item() after taking dt. Iteration 0 also runs estimate_loss(): eval_iters
// batches of each split in eval mode under no_grad, each loss read with item().

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../workloads.h"
#include "engine/autograd.h"
#include "engine/compile.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/nn/utils.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/sim.h"
#include "engine/time.h"

namespace cost_model {
namespace {

using engine::Device;
using engine::Tensor;
namespace F = engine::nn::functional;

struct Config {
  std::int64_t layers, heads, embedding, block, batch, vocab;
  double dropout;
  bool compile;
  int eval_iters;
};

Config config_of(const Case& c) {
  auto get = [&](const char* key, double fallback) {
    const auto it = c.model.find(key);
    return it == c.model.end() ? fallback : it->second;
  };
  // config/train_shakespeare_char.py, unless the case says otherwise
  return {static_cast<std::int64_t>(get("layers", 6)), static_cast<std::int64_t>(get("heads", 6)),
          static_cast<std::int64_t>(get("embedding", 384)), static_cast<std::int64_t>(get("block", 256)),
          static_cast<std::int64_t>(get("batch", 64)), static_cast<std::int64_t>(get("vocab", 65)),
          get("dropout", 0.2), get("compile", 0) != 0, static_cast<int>(get("eval_iters", 200))};
}

struct Block {
  Tensor ln_1, c_attn, attn_proj, ln_2, c_fc, mlp_proj;
};

// model.py's GPT, called as model(idx, targets) -> loss.
struct Gpt {
  Config cfg;
  Tensor wte, wpe, ln_f, positions;
  std::vector<Block> blocks;
  bool training = true;

  std::vector<Tensor> matrices() const {  // configure_optimizers: these decay
    std::vector<Tensor> out{wte, wpe};
    for (const Block& b : blocks) out.insert(out.end(), {b.c_attn, b.attn_proj, b.c_fc, b.mlp_proj});
    return out;
  }
  std::vector<Tensor> vectors() const {  // and these (the layer norms' weights) do not
    std::vector<Tensor> out{ln_f};
    for (const Block& b : blocks) out.insert(out.end(), {b.ln_1, b.ln_2});
    return out;
  }
  // get_num_params(non_embedding=True): every parameter but the position embeddings.
  double non_embedding_params() const {
    double n = 0;
    for (const Tensor& t : matrices()) n += static_cast<double>(t.numel());
    for (const Tensor& t : vectors()) n += static_cast<double>(t.numel());
    return n - static_cast<double>(wpe.numel());
  }

  // (B, T, C) -> (B, heads, T, C / heads): one of q, k, v from c_attn's output.
  Tensor heads(const Tensor& qkv, std::int64_t which) const {
    return qkv.slice(2, which * cfg.embedding, (which + 1) * cfg.embedding)
        .reshape({cfg.batch, cfg.block, cfg.heads, cfg.embedding / cfg.heads})
        .transpose(1, 2);
  }
  Tensor attention(const Block& b, const Tensor& x) const {
    const double p = training ? cfg.dropout : 0.0;
    const Tensor qkv = F::linear(x, b.c_attn);
    const Tensor y = engine::scaled_dot_product_attention(heads(qkv, 0), heads(qkv, 1), heads(qkv, 2), {}, p, true);
    return F::dropout(F::linear(y.transpose(1, 2).reshape({cfg.batch, cfg.block, cfg.embedding}), b.attn_proj), F::DropoutFuncOptions().p(p).training(training));
  }
  Tensor mlp(const Block& b, const Tensor& x) const {
    return F::dropout(F::linear(F::gelu(F::linear(x, b.c_fc)), b.mlp_proj), F::DropoutFuncOptions().p(cfg.dropout).training(training));
  }
  Tensor operator()(const Tensor& idx, const Tensor& targets) const {
    Tensor x = F::dropout(F::embedding(idx, wte) + F::embedding(positions, wpe), F::DropoutFuncOptions().p(cfg.dropout).training(training));
    for (const Block& b : blocks) {
      x = x + attention(b, F::layer_norm(x, F::LayerNormFuncOptions({cfg.embedding}).weight(b.ln_1)));
      x = x + mlp(b, F::layer_norm(x, F::LayerNormFuncOptions({cfg.embedding}).weight(b.ln_2)));
    }
    const Tensor logits = F::linear(F::layer_norm(x, F::LayerNormFuncOptions({cfg.embedding}).weight(ln_f)), wte);  // tied weights
    return F::cross_entropy(logits.reshape({-1, cfg.vocab}), targets.reshape({-1}));
  }
};

// Initialised on the cpu, then model.to(device), as train.py does.
Tensor parameter(engine::IntArrayRef shape, Device device) { return (engine::randn(shape) * 0.02).to(device).requires_grad_(); }
Tensor norm_weight(std::int64_t n, Device device) { return engine::ones({n}).to(device).requires_grad_(); }

Gpt make_gpt(const Config& cfg, Device device) {
  Gpt m{cfg, parameter({cfg.vocab, cfg.embedding}, device), parameter({cfg.block, cfg.embedding}, device),
        norm_weight(cfg.embedding, device), engine::arange(cfg.block).to(device), {}};
  for (std::int64_t i = 0; i < cfg.layers; ++i) {
    m.blocks.push_back({norm_weight(cfg.embedding, device), parameter({3 * cfg.embedding, cfg.embedding}, device),
                        parameter({cfg.embedding, cfg.embedding}, device), norm_weight(cfg.embedding, device),
                        parameter({4 * cfg.embedding, cfg.embedding}, device),
                        parameter({cfg.embedding, 4 * cfg.embedding}, device)});
  }
  return m;
}

// get_batch: random windows assembled on the cpu, then copied to the device.
std::pair<Tensor, Tensor> get_batch(const Config& cfg, Device device) {
  Tensor x = engine::zeros({cfg.batch, cfg.block}, engine::kInt64);
  Tensor y = engine::zeros({cfg.batch, cfg.block}, engine::kInt64);
  if (device.is_mps()) return {x.to(device), y.to(device)};
  return {x, y};
}

class Trainer {
 public:
  explicit Trainer(const Config& cfg, Device device)
      : cfg_(cfg), device_(device), gpt_(make_gpt(cfg, device)),
        decay_(gpt_.matrices(), engine::optim::AdamWOptions(1e-3).betas({0.9, 0.99}).weight_decay(0.1)),
        no_decay_(gpt_.vectors(), engine::optim::AdamWOptions(1e-3).betas({0.9, 0.99}).weight_decay(0)),
        model_(engine::py::torch::compile(std::cref(gpt_))) {
    parameters_ = gpt_.matrices();
    for (const Tensor& v : gpt_.vectors()) parameters_.push_back(v);
    std::tie(x_, y_) = get_batch(cfg_, device_);  // fetch the very first batch
  }

  Tensor forward(const Tensor& x, const Tensor& y) { return cfg_.compile ? model_(x, y) : gpt_(x, y); }

  // estimate_loss(): model.eval(), eval_iters batches of each split under no_grad.
  void estimate_loss() {
    engine::NoGradGuard no_grad;
    gpt_.training = false;
    for (int split = 0; split < 2; ++split) {
      for (int k = 0; k < cfg_.eval_iters; ++k) {
        const auto [x, y] = get_batch(cfg_, device_);
        static_cast<void>(forward(x, y).item<float>());
      }
    }
    gpt_.training = true;
  }

  // One iteration of the training loop, returning the loss for the caller to read or not.
  Tensor step() {
    const Tensor loss = forward(x_, y_);
    std::tie(x_, y_) = get_batch(cfg_, device_);  // fetched while the forward pass runs
    loss.backward();
    engine::py::torch::nn::utils::clip_grad_norm_(parameters_, 1.0);
    decay_.step();
    no_decay_.step();
    decay_.zero_grad();
    no_decay_.zero_grad();
    return loss;
  }

  const Gpt& gpt() const { return gpt_; }

 private:
  Config cfg_;
  Device device_;
  Gpt gpt_;
  engine::optim::AdamW decay_, no_decay_;
  engine::py::torch::CompiledModule<std::reference_wrapper<const Gpt>> model_;
  std::vector<Tensor> parameters_;
  Tensor x_, y_;
};

// The mean of train.py's dt over iterations 10 to 49 (seed 003 averages iterations 10-50).
double steady_seconds_per_iteration(Trainer& trainer) {
  double t0 = engine::py::time::perf_counter(), total = 0;
  for (int iteration = 0; iteration < 50; ++iteration) {
    const Tensor loss = trainer.step();
    const double t1 = engine::py::time::perf_counter();
    if (iteration >= 10) total += t1 - t0;
    t0 = t1;
    if (iteration % 10 == 0) static_cast<void>(loss.item<float>());  // log_interval = 10
  }
  return total / 40;
}

}  // namespace

double nanogpt(const Case& c) {
  const Config cfg = config_of(c);
  engine::sim::ShapeOnlyGuard shape_only;
  Trainer trainer(cfg, Device(c.device));
  if (c.op == "nanogpt_first_iteration") {
    const double t0 = engine::py::time::perf_counter();
    trainer.estimate_loss();
    trainer.step();
    return engine::py::time::perf_counter() - t0;  // seconds
  }
  trainer.estimate_loss();  // iteration 0, as in train.py; not timed here
  const double dt = steady_seconds_per_iteration(trainer);
  if (c.op == "nanogpt_mfu") {
    // GPT.estimate_mfu: flops per token 6N + 12 L H Q T, against an A100's 312 TFLOPS of bf16
    const double q = static_cast<double>(cfg.embedding / cfg.heads), t = static_cast<double>(cfg.block);
    const double per_token = 6 * trainer.gpt().non_embedding_params() +
                             12 * static_cast<double>(cfg.layers * cfg.heads) * q * t;
    return per_token * t * static_cast<double>(cfg.batch) / dt / 312e12 * 100;  // percent
  }
  return dt * 1e3;
}

}  // namespace cost_model
