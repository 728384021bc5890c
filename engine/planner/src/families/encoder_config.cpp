// Reading an encoder's config: Hugging Face's names for the encoder family's settings, per
// model_type (BERT's and ViT's, or DistilBERT's for some of the same fields), with the defaults
// of transformers' config class for that type and Trainer's for the training. A config.json
// holds many fields that do not change what a step computes (initializer_range, pad_token_id,
// ...): those are ignored, except a near miss of a field the planner reads.

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "families/encoder.h"

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace families::encoder {

// Hugging Face's config.json names (BERT's and ViT's, then DistilBERT's), then the planner's own.
const std::vector<std::string> kFields = with_shared_fields({"model_type",
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
                                                             "batch_size"});
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
                shortened(e.model_type) + "\"");
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
      size_rule(in, encoder_own_name("hidden_size", e), e.hidden_size, limits::kWidth),
      size_rule(in, encoder_own_name("num_hidden_layers", e), e.num_hidden_layers, limits::kLayers),
      size_rule(in, encoder_own_name("num_attention_heads", e), e.num_attention_heads,
                limits::kHeads),
      size_rule(in, encoder_own_name("intermediate_size", e), e.intermediate_size,
                limits::kFeedForward),
      probability_rule(in, encoder_own_name("hidden_dropout_prob", e), e.dropout),
      probability_rule(in, encoder_own_name("attention_probs_dropout_prob", e),
                       e.attention_dropout),
      size_rule(in, "num_labels", e.num_labels, limits::kClasses),
      {"id2label", [&](const Field& f) { require_labels(in, f); }, false},  // gives num_labels
      {"attn_implementation",
       [&](const Field& f) {
         e.attn_implementation = in.choice(f, {"sdpa", "eager"});
       }},
  };
  if (e.model_type == "vit") {
    rules.push_back(size_rule(in, "image_size", e.image_size, limits::kImageSide));
    rules.push_back(size_rule(in, "patch_size", e.patch_size, limits::kImageSide));
    rules.push_back(size_rule(in, "num_channels", e.num_channels, limits::kChannels));
  } else {
    rules.push_back(size_rule(in, "vocab_size", e.vocab_size, limits::kVocabulary));
    rules.push_back(
        size_rule(in, "max_position_embeddings", e.max_position_embeddings, limits::kSequence));
    rules.push_back(size_rule(in, "type_vocab_size", e.type_vocab_size, limits::kVocabulary));
    rules.push_back(size_rule(in, "seq_length", e.seq_length, limits::kSequence));
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
  refuse_input_field(in, f, "an encoder's batches are made in memory");
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
    const Field* hidden = in.last(encoder_own_name("hidden_size", e));
    const Field* heads = in.last(encoder_own_name("num_attention_heads", e));
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

// The tensors the sizes multiply into: the attention scores, the feed-forward activations, and
// a text encoder's word embeddings or a ViT's images.
void check_tensors(const ConfigFields& in, const ModelConfig& c) {
  const EncoderSettings& e = c.as<EncoderSettings>();
  const bool vit = e.model_type == "vit";
  const std::int64_t side = e.image_size / e.patch_size;
  const std::pair<std::string, std::int64_t> batch{"batch_size", c.batch_size},
      tokens = vit ? std::pair{std::string("(image_size / patch_size)^2 + 1"), side * side + 1}
                   : std::pair{std::string("seq_length"), e.seq_length};
  std::vector<TensorSize> tensors{
      {"the attention scores",
       {batch,
        {encoder_own_name("num_attention_heads", e), e.num_attention_heads},
        tokens,
        tokens}},
      {"the feed-forward activations",
       {batch, tokens, {encoder_own_name("intermediate_size", e), e.intermediate_size}}}};
  if (vit) {
    tensors.push_back({"the images",
                       {batch,
                        {"num_channels", e.num_channels},
                        {"image_size", e.image_size},
                        {"image_size", e.image_size}}});
  } else {
    tensors.push_back(
        {"the word embeddings",
         {{"vocab_size", e.vocab_size}, {encoder_own_name("hidden_size", e), e.hidden_size}}});
  }
  check_tensor_sizes(in, tensors);
}

ModelConfig read_encoder(const ConfigFields& in) {
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
  check_tensors(in, c);
  return c;
}

}  // namespace families::encoder

// A field's name in the model's own config.json: BERT's, or DistilBERT's where it renames it.
std::string encoder_own_name(std::string_view bert_name, const EncoderSettings& e) {
  const auto distil = families::encoder::renamed(bert_name);
  return e.model_type == "distilbert" && distil ? *distil : std::string(bert_name);
}

std::string encoder_config_class(const EncoderSettings& e) {
  const auto& classes = families::encoder::kConfigClasses;
  return std::find_if(classes.begin(), classes.end(),
                      [&](const auto& k) { return e.model_type == k.model_type; })
      ->name;
}

std::vector<std::string> encoder_field_names() { return families::encoder::kFields; }

ModelConfig read_encoder_config(const ConfigFields& in) {
  return families::encoder::read_encoder(in);
}

}  // namespace planner
