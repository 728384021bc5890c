// The encoder family: Hugging Face transformers' Transformer encoders for classification (BERT,
// DistilBERT, ViT), read from a model's config.json or from TOML with the same names
// (encoder_config.cpp); model_type says which. Their network is encoder_network.cpp's.

#include "families/encoder.h"

#include <fmt/format.h>

#include <algorithm>

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace families::encoder {

class EncoderFamily final : public Family {
 public:
  std::string_view name() const override { return "encoder"; }
  std::vector<std::string> field_names() const override { return encoder_field_names(); }
  bool names_model(const ConfigFields& in) const override { return in.has("model_type"); }
  std::string_view naming_field() const override { return "model_type"; }
  std::string unnamed_refusal() const override {
    return "an encoder names its model_type: \"bert\", \"distilbert\" or \"vit\"";
  }

  ModelConfig read(const ConfigFields& in) const override { return read_encoder_config(in); }

  std::string summary(const ModelConfig& c) const override {
    const EncoderSettings& e = c.as<EncoderSettings>();
    const bool vit = e.model_type == "vit";
    const std::string input =
        vit ? fmt::format("{0}x{0} images in {1}x{1} patches", e.image_size, e.patch_size)
            : fmt::format("{} tokens a sequence", e.seq_length);
    // the transformers class a plan trains, whatever class the checkpoint's `architectures`
    // names (bert-base-uncased's config.json says BertForMaskedLM, its pre-training head)
    const char* model = vit ? "a ViT" : e.model_type == "distilbert" ? "a DistilBERT" : "a BERT";
    const char* trained = vit                            ? "ViTForImageClassification"
                          : e.model_type == "distilbert" ? "DistilBertForSequenceClassification"
                                                         : "BertForSequenceClassification";
    return fmt::format(
        "{} encoder trained as {}, {} layers, {} heads, {} wide, feed-forward {}, {}, batch {}, {} "
        "labels, {} attention, {}",
        model, trained, e.num_hidden_layers, e.num_attention_heads, e.hidden_size,
        e.intermediate_size, input, c.batch_size, e.num_labels, e.attn_implementation, c.optimizer);
  }
  std::int64_t block_count(const ModelConfig& c) const override {
    return c.as<EncoderSettings>().num_hidden_layers;
  }
  std::vector<std::string> defaulted_fields(const ModelConfig& c) const override;
  std::string defaults_source(const ModelConfig& c) const override {
    return fmt::format("the defaults of transformers' {} and Trainer, and the planner's",
                       encoder_config_class(c.as<EncoderSettings>()));
  }
  std::string memory_knobs(const ModelConfig& c) const override {
    return c.as<EncoderSettings>().model_type == "vit" ? "batch_size or image_size"
                                                       : "batch_size or seq_length";
  }
  nlohmann::json settings_json(const ModelConfig& c) const override;
  std::unique_ptr<TrainingRun::State> make_run(const ModelConfig& c, engine::Device device,
                                               bool /*compiled*/) const override {
    return make_encoder_run(c, device);
  }
};

// The config class's defaults for the model, Trainer's and the planner's for the training.
std::vector<std::string> EncoderFamily::defaulted_fields(const ModelConfig& c) const {
  const EncoderSettings& e = c.as<EncoderSettings>();
  std::vector<std::string> out;
  const auto add = [&](std::string_view bert_name, const std::string& value) {
    const std::string name = encoder_own_name(bert_name, e);
    if (std::find(c.set_in_file.begin(), c.set_in_file.end(), name) == c.set_in_file.end())
      out.push_back(name + " " + value);
  };
  add("hidden_size", std::to_string(e.hidden_size));
  add("num_hidden_layers", std::to_string(e.num_hidden_layers));
  add("num_attention_heads", std::to_string(e.num_attention_heads));
  add("intermediate_size", std::to_string(e.intermediate_size));
  add("hidden_dropout_prob", number(e.dropout));
  add("attention_probs_dropout_prob", number(e.attention_dropout));
  if (e.model_type == "vit") {
    add("image_size", std::to_string(e.image_size));
    add("patch_size", std::to_string(e.patch_size));
    add("num_channels", std::to_string(e.num_channels));
  } else {
    add("vocab_size", std::to_string(e.vocab_size));
    add("max_position_embeddings", std::to_string(e.max_position_embeddings));
    if (e.model_type != "distilbert") add("type_vocab_size", std::to_string(e.type_vocab_size));
    add("seq_length", std::to_string(e.seq_length));
  }
  add("num_labels", std::to_string(e.num_labels));
  add("attn_implementation", "\"" + e.attn_implementation + "\"");
  add("batch_size", std::to_string(c.batch_size));
  add("optimizer", "\"" + c.optimizer + "\"");
  return out;
}

// In the names the model's own config.json uses (DistilBERT renames some).
nlohmann::json EncoderFamily::settings_json(const ModelConfig& c) const {
  const EncoderSettings& e = c.as<EncoderSettings>();
  nlohmann::json j{{"model_type", e.model_type},
                   {"num_labels", e.num_labels},
                   {"attn_implementation", e.attn_implementation},
                   {encoder_own_name("hidden_size", e), e.hidden_size},
                   {encoder_own_name("num_hidden_layers", e), e.num_hidden_layers},
                   {encoder_own_name("num_attention_heads", e), e.num_attention_heads},
                   {encoder_own_name("intermediate_size", e), e.intermediate_size},
                   {encoder_own_name("hidden_dropout_prob", e), e.dropout},
                   {encoder_own_name("attention_probs_dropout_prob", e), e.attention_dropout}};
  if (e.model_type == "bert") j["type_vocab_size"] = e.type_vocab_size;
  if (e.model_type == "vit") {
    j.update({{"image_size", e.image_size},
              {"patch_size", e.patch_size},
              {"num_channels", e.num_channels}});
  } else {
    j.update({{"vocab_size", e.vocab_size},
              {"max_position_embeddings", e.max_position_embeddings},
              {"seq_length", e.seq_length}});
  }
  return j;
}

}  // namespace families::encoder

const Family& encoder_family() {
  static const families::encoder::EncoderFamily family;
  return family;
}

}  // namespace planner
