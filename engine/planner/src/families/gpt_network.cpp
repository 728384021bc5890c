// nanoGPT's GPT on the engine, shape-only, as model.py writes it: token and position embeddings,
// pre-norm blocks of causal self-attention and a 4x GELU MLP with dropout, a final layer norm, and
// an output layer tied to the token embedding; or, for a classifier, a `score` layer of its own
// over the last token (transformers' GPT2ForSequenceClassification). Trained by train.py's loop
// body: gradient accumulation, clipping, its optimizer, and its estimate_loss(); the one nanoGPT
// of the course's tools: `course plan` and the cost model's validation (tests/benchmarks) both
// run it.

#include <cmath>
#include <functional>
#include <limits>
#include <tuple>
#include <vector>

#include "families/gpt.h"
#include "run_state.h"

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
  GptSettings cfg;
  Tensor wte, wpe, ln_f, ln_f_b;
  std::vector<Block> blocks;
  Tensor score;  // a classifier's output layer; undefined for a language model (wte is)
  // eager attention's: 0 on and below the diagonal, -inf above, made once (a buffer, as
  // transformers' causal mask and model.py's `bias` are; every batch is block_size long);
  // undefined for sdpa
  Tensor causal_mask;
  bool training = true;
  bool checkpointed = false;  // each block under torch.utils.checkpoint while training

  Tensor norm(const Tensor& x, const Tensor& w, const Tensor& b) const {
    return F::layer_norm(x, F::LayerNormFuncOptions({cfg.n_embd}).weight(w).bias(b));
  }
  Tensor dropout(const Tensor& x) const {
    return F::dropout(x, F::DropoutFuncOptions().p(cfg.dropout).training(training));
  }

  // attn_implementation: "sdpa", model.py's flash path; "eager", the scores, the causal mask
  // added (one kernel, as where() over a mask is), softmax and dropout op by op, as
  // transformers' eager GPT-2 and model.py without flash compute them.
  Tensor attention(const Block& b, const Tensor& x) const {
    const std::int64_t B = x.size(0), T = x.size(1), C = cfg.n_embd;
    const Tensor qkv = F::linear(x, b.c_attn, b.c_attn_b);
    auto heads = [&](std::int64_t i) {
      return qkv.slice(2, i * C, (i + 1) * C)
          .reshape({B, T, cfg.n_head, C / cfg.n_head})
          .transpose(1, 2);
    };
    const double p = training ? cfg.dropout : 0.0;
    Tensor y;
    if (causal_mask.defined()) {
      const double scale = std::sqrt(static_cast<double>(C / cfg.n_head));
      const Tensor scores = heads(0).matmul(heads(1).transpose(-1, -2)) / scale + causal_mask;
      y = F::dropout(engine::softmax(scores, -1), F::DropoutFuncOptions().p(p).training(training))
              .matmul(heads(2));
    } else {
      // q, k and v one statement each: a call's arguments may run in either order
      const Tensor q = heads(0), k = heads(1), v = heads(2);
      y = engine::scaled_dot_product_attention(q, k, v, {}, p, true);
    }
    return dropout(F::linear(y.transpose(1, 2).reshape({B, T, C}), b.attn_proj, b.attn_proj_b));
  }
  Tensor activation(const Tensor& h) const {
    if (cfg.activation_function == "gelu") return F::gelu(h);
    // gelu_new: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), eight kernels
    constexpr double kSqrt2OverPi = 0.7978845608028654;
    // in Python's left-to-right order, one statement each: C++ may evaluate a `*`'s two
    // operands in either order, which would launch the kernels in another order
    const Tensor half = 0.5 * h;
    const Tensor inner = kSqrt2OverPi * (h + 0.044715 * engine::pow(h, 3));
    return half * (1.0 + engine::tanh(inner));
  }
  Tensor mlp(const Block& b, const Tensor& x) const {
    return dropout(F::linear(activation(F::linear(x, b.c_fc, b.c_fc_b)), b.mlp_proj, b.mlp_proj_b));
  }
  Tensor operator()(const Tensor& idx, const Tensor& targets) const {
    const Tensor pos =
        engine::arange(idx.size(1), engine::TensorOptions(idx.device()).dtype(engine::kInt64));
    // nanoGPT's order, one lookup per statement: the operands of one `+` may run in either
    // order (g++ and clang differ), and the order changes what the allocator reuses.
    const Tensor tok_emb = F::embedding(idx, wte);
    const Tensor pos_emb = F::embedding(pos, wpe);
    Tensor x = dropout(tok_emb + pos_emb);
    for (const Block& b : blocks) {
      x = runs::run_block(
          checkpointed, b.c_attn.requires_grad(),
          [this, &b](const Tensor& in) {
            const Tensor h = in + attention(b, norm(in, b.ln_1, b.ln_1_b));
            return h + mlp(b, norm(h, b.ln_2, b.ln_2_b));
          },
          x);
    }
    x = norm(x, ln_f, ln_f_b);
    if (!score.defined()) {
      const Tensor logits = F::linear(x, wte);
      return F::cross_entropy(logits.reshape({-1, cfg.vocab_size}), targets.reshape({-1}));
    }
    // the score of every position, the last one's taken (as the sequences have no padding)
    const std::int64_t B = x.size(0), T = x.size(1);
    const Tensor logits = F::linear(x, score).slice(1, T - 1, T);
    return F::cross_entropy(logits.reshape({B, cfg.num_labels}), targets);
  }

  // configure_optimizers: tensors of two or more dimensions decay, the rest do not.
  std::vector<Tensor> matrices() const {
    std::vector<Tensor> out{wte, wpe};
    for (const Block& b : blocks)
      out.insert(out.end(), {b.c_attn, b.attn_proj, b.c_fc, b.mlp_proj});
    if (score.defined()) out.push_back(score);
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

// Eager attention's causal mask: 0 on and below the diagonal, -inf above.
Tensor causal_mask(std::int64_t T, engine::Device device) {
  Tensor mask = engine::zeros({T, T});
  if (!engine::sim::is_shape_only(mask)) {
    float* m = mask.data_ptr<float>();
    for (std::int64_t i = 0; i < T; ++i)
      for (std::int64_t j = i + 1; j < T; ++j)
        m[i * T + j] = -std::numeric_limits<float>::infinity();
  }
  return mask.to(device);
}

Gpt make_gpt(const GptSettings& cfg, runs::ParameterMaker& make) {
  auto bias = [&](std::int64_t n) { return cfg.bias ? make.zeros({n}) : Tensor(); };
  const std::int64_t C = cfg.n_embd;
  // A language model's wte is also its output layer, so it trains with the head, and backward
  // then reaches the embedding through every block; a classifier's sits below every block.
  if (cfg.num_labels == 0)
    make.enter_head();
  else
    make.enter_block(-1);
  const Tensor wte = make.weight({cfg.vocab_size, C});
  make.enter_block(-1);
  // model.py sizes the position embedding by block_size; GPT-2's config.json by n_positions
  const Tensor wpe = make.weight({cfg.model_type == "gpt2" ? cfg.n_positions : cfg.block_size, C});
  make.enter_head();
  Gpt gpt{cfg, wte, wpe, make.ones({C}), bias(C), {}, {}, {}};  // ln_f: the head's
  for (std::int64_t i = 0; i < cfg.n_layer; ++i) {
    make.enter_block(i);
    gpt.blocks.push_back({make.ones({C}), bias(C), make.weight({3 * C, C}), bias(3 * C),
                          make.weight({C, C}), bias(C), make.ones({C}), bias(C),
                          make.weight({4 * C, C}), bias(4 * C), make.weight({C, 4 * C}), bias(C)});
  }
  if (cfg.num_labels > 0) {
    make.enter_head();
    gpt.score = make.weight({cfg.num_labels, C});
  }
  if (cfg.attn_implementation == "eager")
    gpt.causal_mask = causal_mask(cfg.block_size, make.device());
  return gpt;
}

// configure_optimizers' groups, of the parameters that require grad (a frozen one has none to
// step).
std::vector<Tensor> requiring_grad(const std::vector<Tensor>& group) {
  std::vector<Tensor> out;
  for (const Tensor& t : group) {
    if (t.requires_grad()) out.push_back(t);
  }
  return out;
}

struct GptRun final : TrainingRun::State {
  GptRun(const ModelConfig& c, engine::Device d, bool compiled)
      : config(c),
        cfg(c.as<GptSettings>()),
        device(d),
        compile(compiled),
        maker(d, cfg.n_layer, c.trainable_layers),
        precision(c.autocast, d),
        gpt(make_gpt(cfg, maker)),
        model(engine::py::torch::compile(std::cref(gpt))) {
    trained = requiring_grad(gpt.matrices());
    for (const Tensor& t : requiring_grad(gpt.vectors())) trained.push_back(t);
    optimizers.push_back(runs::make_optimizer(c.optimizer, requiring_grad(gpt.matrices()), 0.1));
    optimizers.push_back(runs::make_optimizer(c.optimizer, requiring_grad(gpt.vectors()), 0.0));
    gpt.checkpointed = c.gradient_checkpointing;
    std::tie(x, y) = batch();
  }
  // get_batch(): windows gathered on the cpu and copied to the device (a blocking copy on mps); a
  // classifier's targets are one label per sequence.
  std::pair<Tensor, Tensor> batch() const {
    const Tensor t = engine::zeros({config.batch_size, cfg.block_size}, engine::kInt64);
    if (cfg.num_labels > 0)
      return {t.to(device), engine::zeros({config.batch_size}, engine::kInt64).to(device)};
    return {t.to(device), t.to(device)};
  }
  // The model and its loss, in train.py's `with ctx:` (the config's precision).
  Tensor forward(const Tensor& a, const Tensor& b) {
    std::optional<engine::py::torch::autocast> ctx;
    precision.enter(ctx);
    return compile ? model(a, b) : gpt(a, b);
  }

  // gradient_accumulation_steps forward and backward passes (the next batch copied in behind
  // each forward pass), clipping to 1.0, the optimizer's step, zero_grad; scaled where float16
  // asks for it, as train.py's scaler does.
  Tensor iterate() override {
    Tensor loss;
    for (std::int64_t micro = 0; micro < config.gradient_accumulation_steps; ++micro) {
      loss = forward(x, y) / static_cast<double>(config.gradient_accumulation_steps);
      std::tie(x, y) = batch();
      precision.backward(loss);
    }
    for (const auto& optimizer : optimizers) precision.unscale(*optimizer);
    engine::py::torch::nn::utils::clip_grad_norm_(trained, 1.0);
    for (const auto& optimizer : optimizers) precision.step(*optimizer);
    precision.update();
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

  void infer() override {
    engine::NoGradGuard no_grad;
    const auto [a, b] = batch();
    static_cast<void>(forward(a, b));
  }

  // model.py's get_num_params(): all but the position embeddings; transformers' num_parameters()
  // for GPT-2's config.json: all.
  std::vector<Tensor> parameters() const override {
    std::vector<Tensor> out;
    for (const Tensor& t : maker.all()) {
      if (cfg.model_type == "gpt2" || !t.is_same(gpt.wpe)) out.push_back(t);
    }
    return out;
  }

  ModelConfig config;
  GptSettings cfg;
  engine::Device device;
  bool compile;
  runs::ParameterMaker maker;
  runs::Precision precision;
  Gpt gpt;
  engine::py::torch::CompiledModule<std::reference_wrapper<const Gpt>> model;
  std::vector<Tensor> trained;
  std::vector<std::unique_ptr<engine::optim::Optimizer>> optimizers;
  Tensor x, y;
};

}  // namespace nanogpt

std::unique_ptr<TrainingRun::State> make_gpt_run(const ModelConfig& config, engine::Device device,
                                                 bool compiled) {
  return std::make_unique<nanogpt::GptRun>(config, device, compiled);
}

}  // namespace planner
