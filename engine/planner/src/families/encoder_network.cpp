// The encoder family's network (encoder.cpp reads its settings): Hugging Face transformers'
// BertForSequenceClassification, DistilBertForSequenceClassification and
// ViTForImageClassification on the engine, trained the usual way (run_state.h's ClassifierRun). Their layers as transformers writes them:
//   - BERT: word, position and token-type embeddings, layer norm (eps 1e-12), dropout; post-norm
//     layers of self-attention and a GELU feed-forward; the pooler (dense and tanh over the first
//     token) and the classifier;
//   - DistilBERT: word and position embeddings; the same post-norm layers; pre_classifier,
//     ReLU, dropout and the classifier over the first token;
//   - ViT: a patch embedding (a convolution of the patch's size and stride), the [CLS] token and
//     position embeddings; pre-norm layers; a final layer norm and the classifier over [CLS].
// Attention is attn_implementation's: "sdpa", one scaled_dot_product_attention (an all-ones
// padding mask is dropped, as transformers does), or "eager", the scores, the mask, softmax and
// dropout op by op (transformers before 4.41, and the benchmarks of that time).
// Simplifications: the engine has no tanh, so the pooler's is charged as a GELU, the same kind
// of per-element kernel; DistilBERT's masked_fill of the scores is charged as BERT's mask add;
// the check that the padding mask is all ones is not run (on mps it waits for the GPU, after the
// batch's blocking copies have already waited).

#include <cmath>
#include <vector>

#include "families/encoder.h"
#include "run_state.h"

namespace planner {
namespace encoder {

using engine::Tensor;
namespace F = engine::nn::functional;

struct Linear {
  Tensor weight, bias;
  Tensor operator()(const Tensor& x) const { return F::linear(x, weight, bias); }
};

struct Norm {
  Tensor weight, bias;
  double eps = 1e-12;
  Tensor operator()(const Tensor& x) const {
    return F::layer_norm(x,
                         F::LayerNormFuncOptions({x.size(-1)}).weight(weight).bias(bias).eps(eps));
  }
};

struct Layer {
  Linear query, key, value, attention_out;
  Norm attention_norm;  // BERT's attention.output.LayerNorm; ViT's layernorm_before
  Linear intermediate, output;
  Norm output_norm;  // BERT's output.LayerNorm; ViT's layernorm_after
};

struct Encoder {
  EncoderSettings cfg;
  bool training = true;
  bool checkpointed = false;             // each layer under torch.utils.checkpoint while training
  Tensor words, positions, token_types;  // text
  Linear patches;                        // ViT: the convolution's weight and bias
  Tensor cls_token;                      // ViT
  Norm embedding_norm;                   // text; ViT's final layernorm
  std::vector<Layer> layers;
  Linear pooler, classifier;  // pooler: BERT's, or DistilBERT's pre_classifier

  bool vit() const { return cfg.model_type == "vit"; }
  std::int64_t head_dim() const { return cfg.hidden_size / cfg.num_attention_heads; }
  Tensor dropout(const Tensor& x, double p) const {
    return F::dropout(x, F::DropoutFuncOptions().p(p).training(training));
  }

  // (B, S, hidden) -> (B, heads, S, head_dim)
  Tensor split(const Tensor& x) const {
    return x.reshape({x.size(0), x.size(1), cfg.num_attention_heads, head_dim()}).transpose(1, 2);
  }

  Tensor attention(const Layer& l, const Tensor& h, const Tensor& mask) const {
    const std::int64_t B = h.size(0), S = h.size(1);
    Tensor q = split(l.query(h));
    const Tensor k = split(l.key(h)), v = split(l.value(h));
    Tensor context;
    if (cfg.attn_implementation == "sdpa") {
      context =
          engine::scaled_dot_product_attention(q, k, v, {}, training ? cfg.attention_dropout : 0.0);
    } else {
      const double scale = std::sqrt(static_cast<double>(head_dim()));
      Tensor scores = cfg.model_type == "distilbert" ? (q / scale).matmul(k.transpose(-1, -2))
                                                     : q.matmul(k.transpose(-1, -2)) / scale;
      if (mask.defined()) scores = scores + mask;
      context = dropout(engine::softmax(scores, -1), cfg.attention_dropout).matmul(v);
    }
    return l.attention_out(context.transpose(1, 2).reshape({B, S, cfg.hidden_size}));
  }

  Tensor layer(const Layer& l, const Tensor& h, const Tensor& mask) const {
    const auto ffn = [&](const Tensor& x) {
      return dropout(l.output(F::gelu(l.intermediate(x))), cfg.dropout);
    };
    if (vit()) {  // pre-norm
      const Tensor x = dropout(attention(l, l.attention_norm(h), mask), cfg.dropout) + h;
      return ffn(l.output_norm(x)) + x;
    }
    const Tensor attended = l.attention_norm(dropout(attention(l, h, mask), cfg.dropout) + h);
    return l.output_norm(ffn(attended) + attended);
  }

  // batch: input_ids, attention_mask, labels; or, for a ViT, pixel_values and labels.
  Tensor loss(const std::vector<Tensor>& batch, const Tensor& position_ids,
              const Tensor& token_type_ids) const {
    const Tensor& labels = batch.back();
    const std::int64_t B = labels.size(0);
    Tensor h, mask;
    if (vit()) {
      const Tensor p = patches_of(batch[0]);
      // cls_token.expand(B, -1, -1): a view in PyTorch; the engine has no expand, so a broadcast
      // add stands in (one small elementwise kernel more than ViT runs)
      const Tensor cls = cls_token + engine::zeros({B, 1, cfg.hidden_size}, p.device());
      h = dropout(engine::cat({cls, p}, 1) + positions, cfg.dropout);
    } else {
      // One statement per lookup, in transformers' order: the operands of one `+` may run in
      // either order (g++ and clang differ), and the order changes what the allocator reuses.
      h = F::embedding(batch[0], words);
      if (token_types.defined()) {
        const Tensor token_type_embeddings = F::embedding(token_type_ids, token_types);
        h = h + token_type_embeddings;
      }
      const Tensor position_embeddings = F::embedding(position_ids, positions);
      h = h + position_embeddings;  // BERT's `+=`: the engine has no in-place autograd
      h = dropout(embedding_norm(h), cfg.dropout);
      if (cfg.attn_implementation == "eager") {
        // get_extended_attention_mask: (1 - mask) x the dtype's lowest, over heads and queries
        mask = (1.0 - batch[1].reshape({B, 1, 1, cfg.seq_length}).to(engine::kFloat)) *
               -3.4028234663852886e38;
      }
    }
    for (const Layer& l : layers)
      h = runs::run_block(
          checkpointed, l.query.weight.requires_grad(),
          [this, &l, mask](const Tensor& in) { return layer(l, in, mask); }, h);
    if (vit()) h = embedding_norm(h);
    const Tensor first = h.slice(1, 0, 1).reshape({B, cfg.hidden_size});
    Tensor logits;
    if (vit()) {
      logits = classifier(first);
    } else if (cfg.model_type == "distilbert") {
      logits = classifier(dropout(F::relu(pooler(first)), 0.2));  // seq_classif_dropout
    } else {
      logits = classifier(dropout(F::gelu(pooler(first)), cfg.dropout));  // tanh, as a GELU
    }
    return F::cross_entropy(logits, labels);
  }

  // ViTPatchEmbeddings: the convolution, flattened to (B, patches, hidden).
  Tensor patches_of(const Tensor& pixels) const {
    const Tensor x = F::conv2d(pixels, patches.weight,
                               F::Conv2dFuncOptions().bias(patches.bias).stride(cfg.patch_size));
    return x.reshape({x.size(0), cfg.hidden_size, x.size(2) * x.size(3)}).transpose(1, 2);
  }
};

struct EncoderRun final : runs::ClassifierRun {
  EncoderRun(const ModelConfig& c, engine::Device d)
      : ClassifierRun(
            runs::ParameterMaker(d, c.as<EncoderSettings>().num_hidden_layers, c.trainable_layers),
            c),
        batch_size(c.batch_size) {
    model.cfg = c.as<EncoderSettings>();
    model.checkpointed = c.gradient_checkpointing;
    const EncoderSettings& e = model.cfg;
    maker.enter_block(-1);  // the embeddings: below every layer
    make_embeddings();
    for (std::int64_t i = 0; i < e.num_hidden_layers; ++i) {
      maker.enter_block(i);
      const std::int64_t H = e.hidden_size, I = e.intermediate_size;
      model.layers.push_back({linear(H, H), linear(H, H), linear(H, H), linear(H, H), norm(H),
                              linear(H, I), linear(I, H), norm(H)});
    }
    maker.enter_head();
    if (model.vit()) {
      model.embedding_norm = norm(e.hidden_size);  // the final layernorm
    } else {
      model.pooler = linear(e.hidden_size, e.hidden_size);
    }
    model.classifier = linear(e.hidden_size, e.num_labels);
    optimizer = runs::make_optimizer(c.optimizer, maker.trained(), 0.0);
    if (!model.vit()) {  // registered buffers, made once on the device
      position_ids = engine::arange(e.seq_length).reshape({1, e.seq_length}).to(d);
      // BERT's buffered token types, expanded to the batch
      token_type_ids = engine::zeros({batch_size, e.seq_length}, engine::kInt64).to(d);
    }
  }

  Linear linear(std::int64_t in, std::int64_t out) {
    return Linear{maker.weight({out, in}), maker.zeros({out})};
  }
  Norm norm(std::int64_t n) {
    return Norm{maker.ones({n}), maker.zeros({n}), 1e-12};  // every config's layer_norm_eps
  }
  // A ViT's patches, [CLS] token and positions; a text encoder's words, positions (and BERT's
  // token types) and their layer norm.
  void make_embeddings() {
    const EncoderSettings& e = model.cfg;
    const std::int64_t H = e.hidden_size;
    if (model.vit()) {
      const std::int64_t side = e.image_size / e.patch_size;
      model.patches = {maker.weight({H, e.num_channels, e.patch_size, e.patch_size}),
                       maker.zeros({H})};
      model.cls_token = maker.weight({1, 1, H});
      model.positions = maker.weight({1, side * side + 1, H});
      return;
    }
    model.words = maker.weight({e.vocab_size, H});
    model.positions = maker.weight({e.max_position_embeddings, H});
    if (e.model_type == "bert") model.token_types = maker.weight({e.type_vocab_size, H});
    model.embedding_norm = norm(H);
  }

  // Made on the cpu each step (a DataLoader's collated batch) and copied to the device.
  std::vector<Tensor> batch() const override {
    const EncoderSettings& e = model.cfg;
    const engine::Device d = maker.device();
    const Tensor labels = engine::zeros({batch_size}, engine::kInt64);
    if (model.vit()) {
      return {engine::zeros({batch_size, e.num_channels, e.image_size, e.image_size}).to(d),
              labels.to(d)};
    }
    const Tensor ids = engine::zeros({batch_size, e.seq_length}, engine::kInt64);
    const Tensor mask = engine::ones({batch_size, e.seq_length}, engine::kInt64);
    return {ids.to(d), mask.to(d), labels.to(d)};
  }
  Tensor loss(const std::vector<Tensor>& b) override {
    return model.loss(b, position_ids, token_type_ids);
  }
  void set_training(bool on) override { model.training = on; }

  std::int64_t batch_size;
  Encoder model;
  Tensor position_ids, token_type_ids;
};

}  // namespace encoder

std::unique_ptr<TrainingRun::State> make_encoder_run(const ModelConfig& config,
                                                     engine::Device device) {
  return std::make_unique<encoder::EncoderRun>(config, device);
}
}  // namespace planner
