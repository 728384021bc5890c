// The planner's models on the engine, shape-only. nanoGPT's mirrors model.py: token and position
// embeddings, pre-norm blocks of causal self-attention and a 4x GELU MLP with dropout, a final
// layer norm, and an output layer tied to the token embedding. An MLP classifier is linear layers
// with ReLU (and dropout) between them and cross-entropy on the last, as the course's own.

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

// An MLP classifier, and its batches: features made on the cpu and copied to the device.
namespace mlp {

namespace F = engine::nn::functional;

struct Mlp {
  std::vector<Tensor> weights, biases;
  double dropout = 0;
  bool training = true;

  Tensor operator()(const Tensor& x, const Tensor& y) const {
    Tensor h = x;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      h = F::linear(h, weights[i], biases[i]);
      if (i + 1 == weights.size()) break;
      h = F::dropout(F::relu(h), F::DropoutFuncOptions().p(dropout).training(training));
    }
    return F::cross_entropy(h, y);
  }
  std::vector<Tensor> parameters() const {
    std::vector<Tensor> all = weights;
    all.insert(all.end(), biases.begin(), biases.end());
    return all;
  }
};

Mlp make_mlp(const ModelConfig& cfg, engine::Device device) {
  Mlp mlp;
  mlp.dropout = cfg.dropout;
  for (std::size_t i = 0; i + 1 < cfg.widths.size(); ++i) {
    const std::int64_t in = cfg.widths[i], out = cfg.widths[i + 1];
    mlp.weights.push_back((engine::randn({out, in}) * 0.02).to(device).requires_grad_());
    mlp.biases.push_back(engine::zeros({out}).to(device).requires_grad_());
  }
  return mlp;
}

}  // namespace mlp

std::int64_t parameter_count(const ModelConfig& config) {
  if (config.family == Family::Mlp) {
    std::int64_t count = 0;
    for (std::size_t i = 0; i + 1 < config.widths.size(); ++i)
      count += (config.widths[i] + 1) * config.widths[i + 1];
    return count;
  }
  const std::int64_t C = config.n_embd, biases = config.bias ? 1 : 0;
  // the four matrices (3C + C + 4C + 4C rows of C), the two layer norms' weights, and with bias
  // on, 11 C biases (3C + C + 4C + C, and the layer norms' two)
  const std::int64_t per_block = 12 * C * C + (2 + 11 * biases) * C;
  return config.vocab_size * C + config.n_layer * per_block + C * (1 + biases);  // wte (tied), ln_f
}

// What a TrainingRun runs: one family's model, optimizer and batches.
struct TrainingRun::State {
  virtual ~State() = default;
  virtual Tensor iterate() = 0;
  virtual void estimate_loss(int eval_iters) = 0;
};

namespace {

struct GptRun final : TrainingRun::State {
  GptRun(const ModelConfig& c, engine::Device d, bool compiled)
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

  // gradient_accumulation_steps forward and backward passes (the next batch copied in behind
  // each forward pass), clipping to 1.0, the optimizer's step, zero_grad.
  Tensor iterate() override {
    Tensor loss;
    for (std::int64_t micro = 0; micro < cfg.gradient_accumulation_steps; ++micro) {
      loss = forward(x, y) / static_cast<double>(cfg.gradient_accumulation_steps);
      std::tie(x, y) = batch();
      loss.backward();
    }
    engine::py::torch::nn::utils::clip_grad_norm_(parameters, 1.0);
    for (const auto& optimizer : optimizers) optimizer->step();
    for (const auto& optimizer : optimizers) optimizer->zero_grad();
    return loss;
  }

  void estimate_loss(int eval_iters) override {
    engine::NoGradGuard no_grad;
    gpt.training = false;
    for (int split = 0; split < 2; ++split) {
      for (int k = 0; k < eval_iters; ++k) {
        const auto [a, b] = batch();
        static_cast<void>(forward(a, b).item<float>());
      }
    }
    gpt.training = true;
  }

  ModelConfig cfg;
  engine::Device device;
  bool compile;
  Gpt gpt;
  engine::py::torch::CompiledModule<std::reference_wrapper<const Gpt>> model;
  std::vector<Tensor> parameters;
  std::vector<std::unique_ptr<engine::optim::Optimizer>> optimizers;
  Tensor x, y;
};

// The usual loop of a classifier: the batch copied to the device, forward, backward, the
// optimizer's step, zero_grad.
struct MlpRun final : TrainingRun::State {
  MlpRun(const ModelConfig& c, engine::Device d)
      : cfg(c),
        device(d),
        model(mlp::make_mlp(c, d)),
        optimizer(make_optimizer(c.optimizer, model.parameters(), 0.01)) {}

  std::pair<Tensor, Tensor> batch() const {
    return {engine::zeros({cfg.batch_size, cfg.widths.front()}).to(device),
            engine::zeros({cfg.batch_size}, engine::kInt64).to(device)};
  }

  Tensor iterate() override {
    const auto [x, y] = batch();
    Tensor loss = model(x, y);
    loss.backward();
    optimizer->step();
    optimizer->zero_grad();
    return loss;
  }

  void estimate_loss(int eval_iters) override {
    engine::NoGradGuard no_grad;
    model.training = false;
    for (int k = 0; k < eval_iters; ++k) {
      const auto [x, y] = batch();
      static_cast<void>(model(x, y).item<float>());
    }
    model.training = true;
  }

  ModelConfig cfg;
  engine::Device device;
  mlp::Mlp model;
  std::unique_ptr<engine::optim::Optimizer> optimizer;
};

}  // namespace

TrainingRun::TrainingRun(const ModelConfig& config, engine::Device device, bool compiled) {
  if (config.family == Family::Mlp)
    state_ = std::make_unique<MlpRun>(config, device);
  else
    state_ = std::make_unique<GptRun>(config, device, compiled);
}
TrainingRun::~TrainingRun() = default;

Tensor TrainingRun::iterate() { return state_->iterate(); }

void TrainingRun::estimate_loss(int eval_iters) { state_->estimate_loss(eval_iters); }

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
