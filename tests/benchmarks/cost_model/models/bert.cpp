// BERT for sequence classification (Hugging Face transformers' BertForSequenceClassification,
// as of late 2023: attention computed op by op, not through scaled_dot_product_attention),
// trained with torch.optim.Adam or run under no_grad, as lucadiliello/
// pytorch-apple-silicon-benchmarks' tests/transformers_sequence_classification.py does:
// from_pretrained() leaves the model in eval mode, so dropout is off even while training;
// each step copies input_ids, attention_mask and labels to the device (blocking copies);
// the script times the whole loop of `steps` steps, the first (cold) one included, with no
// final synchronize. Shape-only: every op charges its simulated cost, none computes.
// The engine has no tanh; the pooler's tanh over (batch, hidden) is charged as a GELU, the
// same kind of per-element kernel.

#include <cmath>
#include <cstdint>
#include <vector>

#include "../workloads.h"
#include "engine/autograd.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/sim.h"
#include "engine/time.h"

namespace cost_model {
namespace {

using engine::Device;
using engine::Tensor;
namespace F = engine::nn::functional;

struct Linear {
  Tensor weight, bias;
  Tensor operator()(const Tensor& x) const { return F::linear(x, weight, bias); }
};

struct Norm {
  Tensor weight, bias;
  Tensor operator()(const Tensor& x) const {
    return F::layer_norm(
        x, F::LayerNormFuncOptions({x.size(-1)}).weight(weight).bias(bias).eps(1e-12));
  }
};

struct Layer {
  Linear query, key, value, attention_out;
  Norm attention_norm;
  Linear intermediate, output;
  Norm output_norm;
};

struct Bert {
  std::int64_t batch, seq, hidden, heads;
  Tensor words, positions, token_types;
  Norm embedding_norm;
  std::vector<Layer> layers;
  Linear pooler, classifier;

  std::vector<Tensor> parameters() const {
    std::vector<Tensor> all{
        words,         positions,   token_types,       embedding_norm.weight, embedding_norm.bias,
        pooler.weight, pooler.bias, classifier.weight, classifier.bias};
    for (const Layer& l : layers) {
      for (const Linear* lin :
           {&l.query, &l.key, &l.value, &l.attention_out, &l.intermediate, &l.output}) {
        all.insert(all.end(), {lin->weight, lin->bias});
      }
      all.insert(all.end(), {l.attention_norm.weight, l.attention_norm.bias, l.output_norm.weight,
                             l.output_norm.bias});
    }
    return all;
  }

  // (B, S, hidden) -> (B, heads, S, hidden / heads)
  Tensor split(const Tensor& x) const {
    return x.reshape({batch, seq, heads, hidden / heads}).transpose(1, 2);
  }

  Tensor layer(const Layer& l, const Tensor& h, const Tensor& mask) const {
    const Tensor q = split(l.query(h)), k = split(l.key(h)), v = split(l.value(h));
    Tensor scores = q.matmul(k.transpose(-1, -2)) / std::sqrt(static_cast<double>(hidden / heads));
    const Tensor probs = engine::softmax(scores + mask, -1);
    const Tensor context = probs.matmul(v).transpose(1, 2).reshape({batch, seq, hidden});
    const Tensor attended = l.attention_norm(l.attention_out(context) + h);
    return l.output_norm(l.output(F::gelu(l.intermediate(attended))) + attended);
  }

  Tensor loss(const Tensor& input_ids, const Tensor& attention_mask, const Tensor& labels,
              const Tensor& position_ids, const Tensor& token_type_ids) const {
    Tensor h = F::embedding(input_ids, words) + F::embedding(token_type_ids, token_types);
    h = embedding_norm(h + F::embedding(position_ids, positions));
    // get_extended_attention_mask: (1 - mask) * the dtype's lowest value, broadcast over heads and queries
    const Tensor mask = (1.0 - attention_mask.reshape({batch, 1, 1, seq}).to(engine::kFloat)) *
                        -3.4028234663852886e38;
    for (const Layer& l : layers) h = layer(l, h, mask);
    const Tensor first = h.slice(1, 0, 1).reshape({batch, hidden});
    const Tensor logits = classifier(F::gelu(pooler(first)));  // tanh, charged as GELU
    return F::cross_entropy(logits, labels);
  }
};

Tensor weights(engine::IntArrayRef shape, Device device) {
  return (engine::randn(shape) * 0.02).to(device).requires_grad_();
}

Linear linear(std::int64_t in, std::int64_t out, Device device) {
  return {weights({out, in}, device), weights({out}, device)};
}

Norm norm(std::int64_t n, Device device) { return {weights({n}, device), weights({n}, device)}; }

double get(const Case& c, const char* key, double fallback) {
  const auto it = c.model.find(key);
  return it == c.model.end() ? fallback : it->second;
}

}  // namespace

double bert(const Case& c) {
  const auto n = [&](const char* key, double fallback) {
    return static_cast<std::int64_t>(get(c, key, fallback));
  };
  // bert-base-cased, unless the case says otherwise
  const std::int64_t hidden = n("hidden", 768), intermediate = n("intermediate", 3072),
                     vocab = n("vocab", 28996);
  const std::int64_t batch = n("batch", 32), seq = n("seq", 128), steps = n("steps", 100),
                     labels_count = n("labels", 2);
  const bool training = get(c, "training", 1) != 0;
  const Device device(c.device);
  engine::sim::ShapeOnlyGuard shape_only;
  Bert model{batch,
             seq,
             hidden,
             n("heads", 12),
             weights({vocab, hidden}, device),
             weights({n("positions", 512), hidden}, device),
             weights({2, hidden}, device),
             norm(hidden, device),
             {},
             linear(hidden, hidden, device),
             linear(hidden, labels_count, device)};
  for (std::int64_t i = 0; i < n("layers", 12); ++i) {
    model.layers.push_back({linear(hidden, hidden, device), linear(hidden, hidden, device),
                            linear(hidden, hidden, device), linear(hidden, hidden, device),
                            norm(hidden, device), linear(hidden, intermediate, device),
                            linear(intermediate, hidden, device), norm(hidden, device)});
  }
  engine::optim::Adam optimizer(model.parameters(), engine::optim::AdamOptions(1e-4));
  const Tensor position_ids =
      engine::arange(seq).reshape({1, seq}).to(device);  // registered buffers
  const Tensor token_type_ids = engine::zeros({batch, seq}, engine::kInt64).to(device);
  const Tensor input_ids = engine::zeros({batch, seq}, engine::kInt64);  // made once on the cpu
  const Tensor attention_mask = engine::ones({batch, seq}, engine::kInt64);
  const Tensor labels = engine::zeros({batch}, engine::kInt64);

  const double start = engine::py::time::perf_counter();
  for (std::int64_t step = 0; step < steps; ++step) {
    const Tensor ids = input_ids.to(device), mask = attention_mask.to(device),
                 target = labels.to(device);
    if (training) {
      optimizer.zero_grad();
      model.loss(ids, mask, target, position_ids, token_type_ids).backward();
      optimizer.step();
    } else {
      engine::NoGradGuard no_grad;
      model.loss(ids, mask, target, position_ids, token_type_ids);
    }
  }
  return engine::py::time::perf_counter() - start;  // seconds
}

}  // namespace cost_model
