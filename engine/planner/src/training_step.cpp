// nanoGPT on the engine, shape-only. Its model mirrors model.py: token and position embeddings,
// pre-norm blocks of causal self-attention and a 4x GELU MLP with dropout, a final layer norm,
// and an output layer tied to the token embedding.

#include "planner/training_step.h"

#include <functional>
#include <tuple>
#include <vector>

namespace planner {
// Named, not anonymous: TrainingRun::State holds these types, and the planner is compiled as one
// unity file, where GCC warns about a class with linkage holding types without it.
namespace nanogpt {

using engine::Tensor;
namespace F = engine::nn::functional;

struct Block {
  Tensor ln_1, ln_1_b, c_attn, c_attn_b, attn_proj, attn_proj_b, ln_2, ln_2_b, c_fc, c_fc_b,
      mlp_proj, mlp_proj_b;
};

struct Gpt {
  ModelConfig cfg;
  Tensor wte, wpe, ln_f, ln_f_b;
  std::vector<Block> blocks;
  bool training = true;

  Tensor norm(const Tensor& x, const Tensor& w, const Tensor& b) const {
    return F::layer_norm(x, F::LayerNormFuncOptions({cfg.n_embd}).weight(w).bias(b));
  }

  Tensor attention(const Block& b, const Tensor& x) const {
    const std::int64_t B = x.size(0), T = x.size(1), C = cfg.n_embd;
    const Tensor qkv = F::linear(x, b.c_attn, b.c_attn_b);
    auto heads = [&](std::int64_t i) {
      return qkv.slice(2, i * C, (i + 1) * C)
          .reshape({B, T, cfg.n_head, C / cfg.n_head})
          .transpose(1, 2);
    };
    const double p = training ? cfg.dropout : 0.0;
    const Tensor y =
        engine::scaled_dot_product_attention(heads(0), heads(1), heads(2), {}, p, true);
    return F::dropout(F::linear(y.transpose(1, 2).reshape({B, T, C}), b.attn_proj, b.attn_proj_b),
                      F::DropoutFuncOptions().p(cfg.dropout).training(training));
  }
  Tensor mlp(const Block& b, const Tensor& x) const {
    return F::dropout(F::linear(F::gelu(F::linear(x, b.c_fc, b.c_fc_b)), b.mlp_proj, b.mlp_proj_b),
                      F::DropoutFuncOptions().p(cfg.dropout).training(training));
  }
  Tensor operator()(const Tensor& idx, const Tensor& targets) const {
    const Tensor pos =
        engine::arange(idx.size(1), engine::TensorOptions(idx.device()).dtype(engine::kInt64));
    Tensor x = F::dropout(F::embedding(idx, wte) + F::embedding(pos, wpe),
                          F::DropoutFuncOptions().p(cfg.dropout).training(training));
    for (const Block& b : blocks) {
      x = x + attention(b, norm(x, b.ln_1, b.ln_1_b));
      x = x + mlp(b, norm(x, b.ln_2, b.ln_2_b));
    }
    const Tensor logits = F::linear(norm(x, ln_f, ln_f_b), wte);
    return F::cross_entropy(logits.reshape({-1, cfg.vocab_size}), targets.reshape({-1}));
  }

  // configure_optimizers: tensors of two or more dimensions decay, the rest do not.
  std::vector<Tensor> matrices() const {
    std::vector<Tensor> out{wte, wpe};
    for (const Block& b : blocks)
      out.insert(out.end(), {b.c_attn, b.attn_proj, b.c_fc, b.mlp_proj});
    return out;
  }
  std::vector<Tensor> vectors() const {
    std::vector<Tensor> out;
    auto add = [&](const Tensor& t) {
      if (t.defined()) out.push_back(t);
    };
    add(ln_f), add(ln_f_b);
    for (const Block& b : blocks) {
      for (const Tensor* t : {&b.ln_1, &b.ln_1_b, &b.c_attn_b, &b.attn_proj_b, &b.ln_2, &b.ln_2_b,
                              &b.c_fc_b, &b.mlp_proj_b})
        add(*t);
    }
    return out;
  }
};

Gpt make_gpt(const ModelConfig& cfg, engine::Device device) {
  auto weight = [&](engine::IntArrayRef shape) {
    return (engine::randn(shape) * 0.02).to(device).requires_grad_();
  };
  auto ones = [&](std::int64_t n) { return engine::ones({n}).to(device).requires_grad_(); };
  auto bias = [&](std::int64_t n) {
    return cfg.bias ? engine::zeros({n}).to(device).requires_grad_() : Tensor();
  };
  const std::int64_t C = cfg.n_embd;
  Gpt gpt{cfg, weight({cfg.vocab_size, C}), weight({cfg.block_size, C}), ones(C), bias(C), {}};
  for (std::int64_t i = 0; i < cfg.n_layer; ++i) {
    gpt.blocks.push_back({ones(C), bias(C), weight({3 * C, C}), bias(3 * C), weight({C, C}),
                          bias(C), ones(C), bias(C), weight({4 * C, C}), bias(4 * C),
                          weight({C, 4 * C}), bias(C)});
  }
  return gpt;
}

// configure_optimizers' AdamW (train.py's defaults), or the plain alternatives a config may ask for.
std::unique_ptr<engine::optim::Optimizer> make_optimizer(const std::string& kind,
                                                         std::vector<Tensor> params,
                                                         double weight_decay) {
  namespace optim = engine::optim;
  if (kind == "sgd")
    return std::make_unique<optim::SGD>(std::move(params), optim::SGDOptions(6e-4).momentum(0.9));
  if (kind == "adam")
    return std::make_unique<optim::Adam>(std::move(params), optim::AdamOptions(6e-4));
  return std::make_unique<optim::AdamW>(
      std::move(params), optim::AdamWOptions(6e-4).betas({0.9, 0.95}).weight_decay(weight_decay));
}

}  // namespace nanogpt
using engine::Tensor;
using nanogpt::Gpt;
using nanogpt::make_gpt;
using nanogpt::make_optimizer;

std::int64_t parameter_count(const ModelConfig& config) {
  const std::int64_t C = config.n_embd, biases = config.bias ? 1 : 0;
  // the four matrices (3C + C + 4C + 4C rows of C), the two layer norms' weights, and with bias
  // on, 11 C biases (3C + C + 4C + C, and the layer norms' two)
  const std::int64_t per_block = 12 * C * C + (2 + 11 * biases) * C;
  return config.vocab_size * C + config.n_layer * per_block + C * (1 + biases);  // wte (tied), ln_f
}

struct TrainingRun::State {
  State(const ModelConfig& c, engine::Device d, bool compiled)
      : cfg(c),
        device(d),
        compile(compiled),
        gpt(make_gpt(c, d)),
        model(engine::py::torch::compile(std::cref(gpt))) {
    parameters = gpt.matrices();
    for (const Tensor& t : gpt.vectors()) parameters.push_back(t);
    optimizers.push_back(make_optimizer(c.optimizer, gpt.matrices(), 0.1));
    optimizers.push_back(make_optimizer(c.optimizer, gpt.vectors(), 0.0));
    std::tie(x, y) = batch();
  }
  // get_batch(): windows gathered on the cpu and copied to the device (a blocking copy on mps).
  std::pair<Tensor, Tensor> batch() const {
    const Tensor t = engine::zeros({cfg.batch_size, cfg.block_size}, engine::kInt64);
    return {t.to(device), t.to(device)};
  }
  Tensor forward(const Tensor& a, const Tensor& b) { return compile ? model(a, b) : gpt(a, b); }

  ModelConfig cfg;
  engine::Device device;
  bool compile;
  Gpt gpt;
  engine::py::torch::CompiledModule<std::reference_wrapper<const Gpt>> model;
  std::vector<Tensor> parameters;
  std::vector<std::unique_ptr<engine::optim::Optimizer>> optimizers;
  Tensor x, y;
};

TrainingRun::TrainingRun(const ModelConfig& config, engine::Device device, bool compiled)
    : state_(std::make_unique<State>(config, device, compiled)) {}
TrainingRun::~TrainingRun() = default;

Tensor TrainingRun::iterate() {
  State& s = *state_;
  Tensor loss;
  for (std::int64_t micro = 0; micro < s.cfg.gradient_accumulation_steps; ++micro) {
    loss = s.forward(s.x, s.y) / static_cast<double>(s.cfg.gradient_accumulation_steps);
    std::tie(s.x, s.y) = s.batch();
    loss.backward();
  }
  engine::py::torch::nn::utils::clip_grad_norm_(s.parameters, 1.0);
  for (const auto& optimizer : s.optimizers) optimizer->step();
  for (const auto& optimizer : s.optimizers) optimizer->zero_grad();
  return loss;
}

void TrainingRun::estimate_loss(int eval_iters) {
  State& s = *state_;
  engine::NoGradGuard no_grad;
  s.gpt.training = false;
  for (int split = 0; split < 2; ++split) {
    for (int k = 0; k < eval_iters; ++k) {
      const auto [x, y] = s.batch();
      static_cast<void>(s.forward(x, y).item<float>());
    }
  }
  s.gpt.training = true;
}

double steady_iteration_seconds(TrainingRun& run, int warm_up, int timed) {
  double t0 = engine::py::time::perf_counter(), total = 0;
  Tensor loss;
  for (int i = 0; i < warm_up + timed; ++i) {
    loss = run.iterate();
    const double t1 = engine::py::time::perf_counter();
    if (i >= warm_up) total += t1 - t0;
    t0 = t1;
  }
  loss.item<float>();  // the log line: the process then holds what the last step needed
  return total / timed;
}

}  // namespace planner
