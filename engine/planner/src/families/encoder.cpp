// The encoder family: Hugging Face transformers' Transformer encoders for classification (BERT,
// DistilBERT, ViT), read from a model's config.json or from TOML with the same names. model_type
// says which; what the file leaves out keeps the defaults of transformers' config class for that
// type, and Trainer's for the training. A config.json holds many fields that do not change what a
// step computes (initializer_range, pad_token_id, ...): those are ignored, except a near miss of
// a field the planner reads.

#include "families/encoder.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace families::encoder {

// Hugging Face's config.json names (BERT's and ViT's, then DistilBERT's), then the planner's own.
const std::vector<std::string> kFields{"model_type",
                                       "hidden_size",
                                       "num_hidden_layers",
                                       "num_attention_heads",
                                       "intermediate_size",
                                       "vocab_size",
                                       "max_position_embeddings",
                                       "type_vocab_size",
                                       "hidden_dropout_prob",
                                       "attention_probs_dropout_prob",
                                       "image_size",
                                       "patch_size",
                                       "num_channels",
                                       "num_labels",
                                       "id2label",
                                       "attn_implementation",
                                       "dim",
                                       "n_layers",
                                       "n_heads",
                                       "hidden_dim",
                                       "dropout",
                                       "attention_dropout",
                                       "seq_length",
                                       "batch_size",
                                       "optimizer",
                                       "trainable_layers"};
// The fields DistilBERT's config names differently from BERT's (and ViT's): (BERT's, DistilBERT's).
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kDistilNames{
    {{"hidden_size", "dim"},
     {"num_hidden_layers", "n_layers"},
     {"num_attention_heads", "n_heads"},
     {"intermediate_size", "hidden_dim"},
     {"hidden_dropout_prob", "dropout"},
     {"attention_probs_dropout_prob", "attention_dropout"}}};
// A text encoder's fields, and a ViT's.
const std::vector<std::string> kTextFields{"vocab_size", "max_position_embeddings",
                                           "type_vocab_size", "seq_length"};
const std::vector<std::string> kImageFields{"image_size", "patch_size", "num_channels"};

// transformers' BertConfig, DistilBertConfig and ViTConfig defaults.
struct ConfigClass {
  const char* model_type;
  const char* name;  // the config class
  std::int64_t vocab_size, hidden_size, num_hidden_layers, num_attention_heads, intermediate_size;
  double hidden_dropout, attention_dropout;
};
constexpr std::array<ConfigClass, 3> kConfigClasses{
    {{"bert", "BertConfig", 30522, 768, 12, 12, 3072, 0.1, 0.1},
     {"distilbert", "DistilBertConfig", 30522, 768, 6, 12, 3072, 0.1, 0.1},
     {"vit", "ViTConfig", 0, 768, 12, 12, 3072, 0.0, 0.0}}};

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The other config's name for a field of kDistilNames (DistilBERT's for BERT's, BERT's for
// DistilBERT's), if `name` is one.
std::optional<std::string> renamed(std::string_view name) {
  for (const auto& [bert, distil] : kDistilNames) {
    if (name == bert) return std::string(distil);
    if (name == distil) return std::string(bert);
  }
  return std::nullopt;
}
bool distilbert_name(std::string_view name) {
  return std::any_of(kDistilNames.begin(), kDistilNames.end(),
                     [&](const auto& pair) { return name == pair.second; });
}

// A field's name in the model's own config.json: BERT's, or DistilBERT's where it renames it.
std::string own_name(std::string_view bert_name, const EncoderSettings& e) {
  const auto distil = renamed(bert_name);
  return e.model_type == "distilbert" && distil ? *distil : std::string(bert_name);
}

// The fields of the model_type's config, for its messages.
std::vector<std::string> own_fields(const EncoderSettings& e) {
  const bool vit = e.model_type == "vit", distilbert = e.model_type == "distilbert";
  std::vector<std::string> own;
  for (const std::string& name : kFields) {
    const bool other_config = renamed(name) && distilbert_name(name) != distilbert;
    if (!other_config && !(contains(kTextFields, name) && vit) &&
        !(contains(kImageFields, name) && !vit))
      own.push_back(name);
  }
  return own;
}

// model_type, with its config class's defaults.
void take_model_type(const ConfigFields& in, const Field& f, EncoderSettings& e) {
  e.model_type = in.text(f);
  const auto known = std::find_if(kConfigClasses.begin(), kConfigClasses.end(),
                                  [&](const auto& k) { return e.model_type == k.model_type; });
  if (known == kConfigClasses.end()) {
    in.fail(f,
            "the planner knows the encoders \"bert\", \"distilbert\" and \"vit\" and the GPT "
            "\"gpt2\", not \"" +
                e.model_type + "\"");
  }
  e.vocab_size = known->vocab_size, e.hidden_size = known->hidden_size;
  e.num_hidden_layers = known->num_hidden_layers;
  e.num_attention_heads = known->num_attention_heads;
  e.intermediate_size = known->intermediate_size;
  e.dropout = known->hidden_dropout, e.attention_dropout = known->attention_dropout;
}

std::vector<FieldRule> encoder_rules(const ConfigFields& in, ModelConfig& c) {
  EncoderSettings& e = c.as<EncoderSettings>();
  std::vector<FieldRule> rules{
      choosing_rule("model_type"),  // read first: it sets the defaults
      choosing_rule("family"),      // "encoder", checked by the registry
      size_rule(in, own_name("hidden_size", e), e.hidden_size),
      size_rule(in, own_name("num_hidden_layers", e), e.num_hidden_layers),
      size_rule(in, own_name("num_attention_heads", e), e.num_attention_heads),
      size_rule(in, own_name("intermediate_size", e), e.intermediate_size),
      probability_rule(in, own_name("hidden_dropout_prob", e), e.dropout),
      probability_rule(in, own_name("attention_probs_dropout_prob", e), e.attention_dropout),
      size_rule(in, "num_labels", e.num_labels),
      {"id2label", [&](const Field& f) { require_labels(in, f); }, false},  // gives num_labels
      {"attn_implementation",
       [&](const Field& f) {
         e.attn_implementation = in.choice(f, {"sdpa", "eager"});
       }},
  };
  if (e.model_type == "vit") {
    rules.push_back(size_rule(in, "image_size", e.image_size));
    rules.push_back(size_rule(in, "patch_size", e.patch_size));
    rules.push_back(size_rule(in, "num_channels", e.num_channels));
  } else {
    rules.push_back(size_rule(in, "vocab_size", e.vocab_size));
    rules.push_back(size_rule(in, "max_position_embeddings", e.max_position_embeddings));
    rules.push_back(size_rule(in, "type_vocab_size", e.type_vocab_size));
    rules.push_back(size_rule(in, "seq_length", e.seq_length));
  }
  for (FieldRule& rule : shared_rules(in, c)) rules.push_back(std::move(rule));
  return rules;
}

// Names other libraries give a field (or the planner's other families): what to write instead.
std::optional<std::string> other_library_name(std::string_view name, const EncoderSettings& e) {
  const bool distil = e.model_type == "distilbert";
  if (name == "num_layers" || name == "n_layer" || name == "layers")
    return distil ? "n_layers" : "num_hidden_layers";
  if (name == "num_heads" || name == "n_head") return distil ? "n_heads" : "num_attention_heads";
  if (name == "num_classes") return std::string("num_labels");
  return std::nullopt;
}

void other_field(const ConfigFields& in, const Field& f, const EncoderSettings& e) {
  const bool distilbert = e.model_type == "distilbert", vit = e.model_type == "vit";
  if (const auto other = renamed(f.name); other && distilbert_name(f.name) != distilbert) {
    in.fail(f, distilbert ? "DistilBERT's config calls it " + *other
                          : "DistilBERT's name; " + e.model_type + "'s config calls it " + *other);
  }
  if (contains(kImageFields, f.name) && !vit)
    in.fail(f, "a ViT's field; a text encoder reads seq_length tokens");
  if (contains(kTextFields, f.name) && vit)
    in.fail(f, "a text encoder's field; a ViT reads images of image_size");
  if (const auto other = other_library_name(f.name, e))
    in.fail(f, e.model_type + "'s config calls it " + *other);
  const std::vector<std::string> own = own_fields(e);
  if (const auto near = near_name(f.name, own))
    in.fail(f, "not a field the planner knows; did you mean " + *near + "?");
  if (!in.open())
    in.fail(f, "not a field of " + e.model_type + "'s config (its fields: " + listed(own) + ")");
}

// The sizes that must agree, once every field is read.
void check_sizes(const ConfigFields& in, const EncoderSettings& e) {
  if (e.hidden_size % e.num_attention_heads != 0) {
    const Field* hidden = in.last(own_name("hidden_size", e));
    const Field* heads = in.last(own_name("num_attention_heads", e));
    const Field& later =
        hidden != nullptr && (heads == nullptr || hidden->line > heads->line) ? *hidden : *heads;
    in.fail(later, "the hidden size (" + std::to_string(e.hidden_size) +
                       ") is not a multiple of the number of attention heads (" +
                       std::to_string(e.num_attention_heads) + ")");
  }
  const auto line = [&](const char* name) { return in.has(name) ? in.last(name)->line : 0; };
  if (e.model_type == "vit" && e.patch_size > e.image_size) {
    throw ConfigError(in.path(), line("patch_size"),
                      "patch_size (" + std::to_string(e.patch_size) +
                          ") is larger than image_size (" + std::to_string(e.image_size) + ")");
  }
  if (e.model_type != "vit" && e.seq_length > e.max_position_embeddings) {
    throw ConfigError(in.path(), line("seq_length"),
                      "seq_length (" + std::to_string(e.seq_length) +
                          ") is longer than the model's max_position_embeddings (" +
                          std::to_string(e.max_position_embeddings) + ")");
  }
}

const ConfigClass& config_class(const EncoderSettings& e) {
  return *std::find_if(kConfigClasses.begin(), kConfigClasses.end(),
                       [&](const auto& k) { return e.model_type == k.model_type; });
}

class EncoderFamily final : public Family {
 public:
  std::string_view name() const override { return "encoder"; }
  std::vector<std::string> field_names() const override { return kFields; }
  bool names_model(const ConfigFields& in) const override { return in.has("model_type"); }
  std::string_view naming_field() const override { return "model_type"; }
  std::string unnamed_refusal() const override {
    return "an encoder names its model_type: \"bert\", \"distilbert\" or \"vit\"";
  }

  ModelConfig read(const ConfigFields& in) const override {
    ModelConfig c;
    c.name = in.stem();
    c.batch_size = 8;  // Trainer's per_device_train_batch_size
    EncoderSettings& e = c.settings.emplace<EncoderSettings>();
    for (const Field& f : in.fields()) {
      if (f.name == "model_type") take_model_type(in, f, e);
    }
    c.set_in_file = in.apply(encoder_rules(in, c), [&](const Field& f) { other_field(in, f, e); });
    e.num_labels = labels_named(in, e.num_labels, c);
    check_sizes(in, e);
    check_trainable(in, c, e.num_hidden_layers);
    return c;
  }

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
                       config_class(c.as<EncoderSettings>()).name);
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
    const std::string name = own_name(bert_name, e);
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
                   {own_name("hidden_size", e), e.hidden_size},
                   {own_name("num_hidden_layers", e), e.num_hidden_layers},
                   {own_name("num_attention_heads", e), e.num_attention_heads},
                   {own_name("intermediate_size", e), e.intermediate_size},
                   {own_name("hidden_dropout_prob", e), e.dropout},
                   {own_name("attention_probs_dropout_prob", e), e.attention_dropout}};
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
