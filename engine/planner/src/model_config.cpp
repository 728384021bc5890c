// Reading a ModelConfig. Both formats become one list of assignments (field, line, value), which
// one function checks and applies, so TOML and nanoGPT's Python files follow the same rules.

#include "planner/model_config.h"

#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <utility>
#include <variant>
#include <vector>

#include "engine/notebook/spelling.h"
#include "engine/notebook/text_file.h"

namespace planner {
namespace {

using Value = std::variant<std::int64_t, double, bool, std::string, std::vector<std::int64_t>>;

struct Assignment {
  std::string field;
  int line = 0;
  std::optional<Value> value;  // empty: written in a form the planner cannot read
  std::string text;            // the value as written, for messages
};

// train.py's globals that do not change what an iteration computes: accepted and ignored.
constexpr std::array kIgnoredFields{"out_dir",       "eval_interval", "log_interval",
                                    "eval_iters",    "eval_only",     "always_save_checkpoint",
                                    "wandb_log",     "wandb_project", "wandb_run_name",
                                    "learning_rate", "max_iters",     "weight_decay",
                                    "beta1",         "beta2",         "grad_clip",
                                    "decay_lr",      "warmup_iters",  "lr_decay_iters",
                                    "min_lr",        "backend",       "device",
                                    "dtype"};
// A GPT's fields, beside `family`.
constexpr std::array kGptFields{"n_layer",
                                "n_head",
                                "n_embd",
                                "block_size",
                                "batch_size",
                                "vocab_size",
                                "gradient_accumulation_steps",
                                "dropout",
                                "bias",
                                "num_labels",
                                "activation_function",
                                "attn_implementation",
                                "compile",
                                "optimizer",
                                "dataset",
                                "init_from",
                                "trainable_layers"};

template <std::size_t N>
bool one_of(const std::array<const char*, N>& names, std::string_view name) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

// An MLP's fields, beside `family`.
constexpr std::array kMlpFields{"widths", "batch_size", "dropout", "optimizer", "trainable_layers"};
// An encoder's: Hugging Face's config.json names (BERT's and ViT's, then DistilBERT's), then the
// planner's own.
constexpr std::array kEncoderFields{"model_type",
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
constexpr std::array kTextFields{"vocab_size", "max_position_embeddings", "type_vocab_size",
                                 "seq_length"};
constexpr std::array kImageFields{"image_size", "patch_size", "num_channels"};

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

// transformers' GPT2Config's fields the planner reads, and its own beside them.
constexpr std::array kGpt2Fields{"model_type",  "architectures",    "n_layer",
                                 "n_head",      "n_embd",           "vocab_size",
                                 "n_positions", "n_inner",          "activation_function",
                                 "resid_pdrop", "num_labels",       "id2label",
                                 "seq_length",  "batch_size",       "gradient_accumulation_steps",
                                 "optimizer",   "trainable_layers", "attn_implementation",
                                 "compile"};

// A CNN's: torchvision's names (the model's, its num_classes), the input and the training.
constexpr std::array kCnnFields{"model",      "image_size", "num_classes",
                                "batch_size", "optimizer",  "trainable_layers"};

// Hugging Face's config classes' defaults, per model_type (transformers' BertConfig,
// DistilBertConfig, ViTConfig).
struct EncoderDefaults {
  const char* model_type;
  std::int64_t vocab_size, hidden_size, num_hidden_layers, num_attention_heads, intermediate_size;
  double hidden_dropout, attention_dropout;
};
constexpr std::array<EncoderDefaults, 3> kEncoders{
    {{"bert", 30522, 768, 12, 12, 3072, 0.1, 0.1},
     {"distilbert", 30522, 768, 6, 12, 3072, 0.1, 0.1},
     {"vit", 0, 768, 12, 12, 3072, 0.0, 0.0}}};

template <std::size_t N>
std::string listed(const std::array<const char*, N>& names) {
  std::string out;
  for (const char* n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

// The field of `fields` that `name` is most likely a misspelling of (n_layers, n_embed), if any.
template <std::size_t N>
std::optional<std::string> near_field(std::string_view name,
                                      const std::array<const char*, N>& fields) {
  for (std::string_view field : fields) {
    if (engine::notebook::spelling_distance(name, field) <= (field.size() >= 6 ? 2u : 1u))
      return std::string(field);
  }
  return std::nullopt;
}

std::optional<std::string> near_field(std::string_view name,
                                      const std::vector<std::string>& fields) {
  for (std::string_view field : fields) {
    if (engine::notebook::spelling_distance(name, field) <= (field.size() >= 6 ? 2u : 1u))
      return std::string(field);
  }
  return std::nullopt;
}

// Names other libraries (or the planner's other families) give a field: what to write instead.
std::optional<std::string> other_name(std::string_view name, Family family,
                                      const std::string& model_type) {
  const bool distil = model_type == "distilbert";
  if (family == Family::Encoder) {
    if (name == "num_layers" || name == "n_layer" || name == "layers")
      return distil ? "n_layers" : "num_hidden_layers";
    if (name == "num_heads" || name == "n_head") return distil ? "n_heads" : "num_attention_heads";
    if (name == "num_classes") return std::string("num_labels");
  }
  if (family == Family::Cnn && (name == "num_labels" || name == "classes"))
    return std::string("num_classes");
  return std::nullopt;
}

// model.py's from_pretrained: the GPT-2 checkpoints' shapes (bias on, GPT-2's 50257 tokens).
struct Pretrained {
  const char* name;
  std::int64_t n_layer, n_head, n_embd;
};
constexpr std::array<Pretrained, 4> kPretrained{{{"gpt2", 12, 12, 768},
                                                 {"gpt2-medium", 24, 16, 1024},
                                                 {"gpt2-large", 36, 20, 1280},
                                                 {"gpt2-xl", 48, 25, 1600}}};

std::string describe(const Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return "'" + *s + "'";
  if (std::holds_alternative<std::vector<std::int64_t>>(v)) return "a list";
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  std::ostringstream out;
  out << std::get<double>(v);
  const std::string text = out.str();
  return text.find_first_of(".en") == std::string::npos ? text + ".0" : text;  // 768.0, not 768
}

// The largest size the planner takes: sizes multiply into tensor lengths, which stay int64.
constexpr std::int64_t kLargestSize = 1'000'000'000;

class Applier {
 public:
  explicit Applier(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const Assignment& a, const std::string& message) const {
    throw ConfigError(path_, a.line, a.field + ": " + message);
  }
  const Value& value_of(const Assignment& a) const {
    if (!a.value) {
      if (path_.ends_with(".py")) {
        fail(a, "cannot read '" + a.text +
                    "' (the planner reads numbers, True/False, quoted strings and products such "
                    "as 5 * 8)");
      }
      fail(a, "cannot use " + a.text + " here: expected a number, true or false, or a string");
    }
    return *a.value;
  }
  std::int64_t positive_integer(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* i = std::get_if<std::int64_t>(&v);
    if (i == nullptr || *i < 1)
      fail(a, "expected a positive integer, got " + (a.text.empty() ? describe(v) : a.text));
    if (*i > kLargestSize)
      fail(a, "expected at most " + std::to_string(kLargestSize) + ", got " + std::to_string(*i));
    return *i;
  }
  double fraction(const Assignment& a) const {
    const Value& v = value_of(a);
    double x = -1;
    if (const auto* d = std::get_if<double>(&v)) x = *d;
    if (const auto* i = std::get_if<std::int64_t>(&v)) x = static_cast<double>(*i);
    if (!(x >= 0 && x < 1))
      fail(a, "expected a probability from 0 up to (not including) 1, got " + describe(v));
    return x;
  }
  bool boolean(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* b = std::get_if<bool>(&v);
    if (b == nullptr) fail(a, "expected true or false, got " + describe(v));
    return *b;
  }
  std::vector<std::int64_t> widths(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* list = std::get_if<std::vector<std::int64_t>>(&v);
    const bool positive = list != nullptr && std::all_of(list->begin(), list->end(),
                                                         [](std::int64_t w) { return w > 0; });
    if (!positive || list->size() < 2) {
      fail(a,
           "expected a list of two or more positive integers, the inputs first and the classes "
           "last: widths = [784, 256, 10]");
    }
    return *list;
  }
  std::string text(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* s = std::get_if<std::string>(&v);
    if (s == nullptr) fail(a, "expected a quoted string, got " + describe(v));
    return *s;
  }

  // The family: named by `family`, or by the field that names the model (an encoder's
  // model_type, a CNN's model). --json writes family = "encoder" or "cnn" beside those.
  ModelConfig apply(const std::vector<Assignment>& assignments, bool ignore_unknown) const {
    const auto has = [&](const char* field) {
      return std::any_of(assignments.begin(), assignments.end(),
                         [&](const Assignment& a) { return a.field == field; });
    };
    const bool gpt2 = std::any_of(assignments.begin(), assignments.end(), [](const Assignment& a) {
      const auto* s =
          a.field == "model_type" && a.value ? std::get_if<std::string>(&*a.value) : nullptr;
      return s != nullptr && *s == "gpt2";
    });
    const bool encoder = has("model_type") && !gpt2, cnn = has("model") && !ignore_unknown;
    for (const Assignment& a : assignments) {
      if (a.field != "family") continue;
      const std::string family = text(a);
      if (gpt2 && family != "gpt")
        fail(a, "model_type \"gpt2\" is a GPT: family = \"gpt\", or no family, not \"" + family +
                    "\"");
      const bool expected = family == (gpt2 ? "gpt" : encoder ? "encoder" : cnn ? "cnn" : family);
      if (!expected ||
          (family != "gpt" && family != "mlp" && family != "encoder" && family != "cnn")) {
        fail(a,
             "expected \"gpt\", \"mlp\", \"encoder\" or \"cnn\" (an encoder names its "
             "model_type, a CNN its torchvision model), got \"" +
                 family + "\"" +
                 (encoder ? " beside model_type"
                  : cnn   ? " beside model"
                          : ""));
      }
      if (family == "mlp") return apply_mlp(assignments);
      if (family == "encoder" && !encoder)
        fail(a, "an encoder names its model_type: \"bert\", \"distilbert\" or \"vit\"");
      if (family == "cnn" && !cnn) fail(a, "a CNN names torchvision's model: model = \"resnet50\"");
    }
    if (gpt2) return apply_gpt2(assignments, ignore_unknown);
    if (encoder) return apply_encoder(assignments, ignore_unknown);
    if (cnn) return apply_cnn(assignments);
    ModelConfig c;
    c.name = std::filesystem::path(path_).stem().string();
    std::optional<Assignment> vocab, embd, head;
    std::optional<Assignment> block_given;
    for (const Assignment& a : assignments) {
      if (a.field == "family")
        continue;  // "gpt"
      else if (a.field == "widths")
        fail(
            a,
            "an MLP's field; a GPT has n_layer, n_head and n_embd (family = \"mlp\" plans an MLP)");
      else if (a.field == "n_layer")
        c.n_layer = positive_integer(a);
      else if (a.field == "n_head")
        c.n_head = positive_integer(a), head = a;
      else if (a.field == "n_embd")
        c.n_embd = positive_integer(a), embd = a;
      else if (a.field == "block_size")
        c.block_size = positive_integer(a), block_given = a;
      else if (a.field == "batch_size")
        c.batch_size = positive_integer(a);
      else if (a.field == "vocab_size")
        c.vocab_size = positive_integer(a), vocab = a;
      else if (a.field == "gradient_accumulation_steps")
        c.gradient_accumulation_steps = positive_integer(a);
      else if (a.field == "dropout")
        c.dropout = fraction(a);
      else if (a.field == "bias")
        c.bias = boolean(a);
      else if (a.field == "num_labels")
        c.sequence_labels = positive_integer(a);
      else if (a.field == "activation_function")
        c.activation_function = activation_function(a);
      else if (a.field == "attn_implementation")
        c.attn_implementation = attn_implementation(a);
      else if (a.field == "compile")
        c.compile = boolean(a);
      else if (a.field == "dataset")
        c.dataset = text(a);
      else if (a.field == "init_from")
        c.init_from = text(a);
      else if (a.field == "optimizer")
        c.optimizer = optimizer(a);
      else if (a.field == "trainable_layers")
        c.trainable_layers = count(a);
      else if (one_of(kIgnoredFields, a.field)) {
        continue;
      } else if (const auto near = near_field(a.field, kGptFields)) {
        fail(a, "not a field the planner knows; did you mean " + *near + "?");
      } else if (!ignore_unknown) {
        fail(a, "not a field the planner knows (a GPT's fields: " + listed(kGptFields) +
                    "; family = \"mlp\", model_type = \"bert\" or model = \"resnet50\" plan other "
                    "families)");
      }
      if (one_of(kGptFields, a.field)) c.set_in_file.push_back(a.field);
    }
    if (c.set_in_file.empty()) {
      throw ConfigError(
          path_, 0,
          "sets none of the planner's fields, so the plan would be train.py's defaults "
          "(GPT-2 124M on OpenWebText); set at least n_layer, n_head, n_embd, block_size "
          "and batch_size, or name another family (family = \"mlp\", model_type = \"bert\", "
          "model = \"resnet50\")");
    }
    if (!vocab)
      c.vocab_size =
          c.dataset == "shakespeare_char" ? 65 : 50304;  // meta.pkl, else train.py's fallback
    for (const Pretrained& p : kPretrained) {
      if (c.init_from != p.name)
        continue;  // from_pretrained keeps only dropout (and a shorter block_size)
      c.n_layer = p.n_layer, c.n_head = p.n_head, c.n_embd = p.n_embd, c.vocab_size = 50257,
      c.bias = true;
      if (block_given && c.block_size > 1024) {
        fail(*block_given,
             "GPT-2's checkpoints hold 1024 positions; train.py crops a model to a shorter "
             "block_size but cannot grow it to " +
                 std::to_string(c.block_size));
      }
      if (!block_given) c.block_size = 1024;
      head.reset(), embd.reset();
    }
    if (c.n_embd % c.n_head != 0) {
      const Assignment& later = embd && (!head || embd->line > head->line) ? *embd : *head;
      fail(later, "n_embd (" + std::to_string(c.n_embd) + ") must be a multiple of n_head (" +
                      std::to_string(c.n_head) + ")");
    }
    check_trainable(c, assignments);
    return c;
  }

  // An MLP classifier: its widths, batch, dropout and optimizer; a GPT's field is named as one.
  ModelConfig apply_mlp(const std::vector<Assignment>& assignments) const {
    ModelConfig c;
    c.name = std::filesystem::path(path_).stem().string();
    c.family = Family::Mlp;
    c.batch_size = 64;
    c.gradient_accumulation_steps = 1;
    c.compile = false;
    for (const Assignment& a : assignments) {
      if (a.field == "family") continue;
      if (a.field == "widths")
        c.widths = widths(a);
      else if (a.field == "batch_size")
        c.batch_size = positive_integer(a);
      else if (a.field == "dropout")
        c.dropout = fraction(a);
      else if (a.field == "optimizer")
        c.optimizer = optimizer(a);
      else if (a.field == "trainable_layers")
        c.trainable_layers = count(a);
      else if (one_of(kGptFields, a.field))
        fail(a, "a GPT's field, not an MLP's (an MLP's fields: " + listed(kMlpFields) + ")");
      else if (const auto near = near_field(a.field, kMlpFields))
        fail(a, "not a field the planner knows; did you mean " + *near + "?");
      else
        fail(a, "not a field of an MLP (its fields: " + listed(kMlpFields) + ")");
      c.set_in_file.push_back(a.field);
    }
    if (c.widths.empty()) {
      throw ConfigError(path_, 0,
                        "an MLP needs its widths, the inputs first and the classes last: "
                        "widths = [784, 256, 10]");
    }
    check_trainable(c, assignments);
    return c;
  }

  // GPT-2 as transformers configures it (a checkpoint's config.json: gpt2, distilgpt2, a
  // fine-tuned one): GPT2Config's fields and defaults, then the training's, as for an encoder.
  // GPT2Config's defaults: 12 layers, 12 heads, 768 wide, 50257 tokens, 1024 positions, biases,
  // gelu_new, dropout 0.1. The head is the language model's tied to the token embedding, unless
  // `architectures` names GPT2ForSequenceClassification: then num_labels (or id2label) labels.
  ModelConfig apply_gpt2(const std::vector<Assignment>& assignments, bool ignore_unknown) const {
    ModelConfig c;
    c.name = std::filesystem::path(path_).stem().string();
    c.family = Family::Gpt;
    c.model_type = "gpt2";
    c.n_layer = 12, c.n_head = 12, c.n_embd = 768, c.vocab_size = 50257;
    c.dropout = 0.1, c.bias = true, c.activation_function = "gelu_new";
    c.batch_size = 8;  // Trainer's per_device_train_batch_size
    c.gradient_accumulation_steps = 1;
    c.compile = false;
    c.optimizer = "adamw";  // Trainer's
    std::int64_t positions = 1024, labels = 2;
    std::optional<Assignment> seq, embd, head, labels_given, labels_map, inner_given;
    std::int64_t inner = 0;
    std::optional<bool> classifier;  // architectures names GPT2ForSequenceClassification
    for (const Assignment& a : assignments) {
      const std::string& f = a.field;
      if (f == "model_type" || f == "family") continue;  // "gpt2"; family "gpt", checked by apply
      if (f == "architectures")
        classifier = is_classifier(a);
      else if (f == "n_layer")
        c.n_layer = positive_integer(a);
      else if (f == "n_head")
        c.n_head = positive_integer(a), head = a;
      else if (f == "n_embd")
        c.n_embd = positive_integer(a), embd = a;
      else if (f == "vocab_size")
        c.vocab_size = positive_integer(a);
      else if (f == "n_positions")
        positions = positive_integer(a);
      else if (f == "n_inner") {
        if (a.text != "null") inner = positive_integer(a), inner_given = a;
      } else if (f == "activation_function")
        c.activation_function = activation_function(a);
      else if (f == "resid_pdrop")
        c.dropout = fraction(a);
      else if (f == "num_labels")
        labels = positive_integer(a), labels_given = a;
      else if (f == "id2label") {
        require_labels(a);
        labels_map = a;
        continue;
      } else if (f == "seq_length")
        c.block_size = positive_integer(a), seq = a;
      else if (f == "batch_size")
        c.batch_size = positive_integer(a);
      else if (f == "gradient_accumulation_steps")
        c.gradient_accumulation_steps = positive_integer(a);
      else if (f == "optimizer")
        c.optimizer = optimizer(a);
      else if (f == "trainable_layers")
        c.trainable_layers = count(a);
      else if (f == "attn_implementation")
        c.attn_implementation = attn_implementation(a);
      else if (f == "compile")
        c.compile = boolean(a);
      else if (f == "block_size" || f == "seq_len" || f == "max_length")
        fail(a,
             "a GPT-2 config calls the tokens per sequence seq_length (n_positions is the "
             "longest it takes)");
      else if (f == "dropout")
        fail(a, "GPT-2's config calls it resid_pdrop");
      else if (f == "bias")
        fail(a, "GPT-2's layers always have biases");
      else if (f == "per_device_train_batch_size")
        fail(a, "the planner calls Trainer's per_device_train_batch_size batch_size");
      else if (const auto near = near_field(f, kGpt2Fields))
        fail(a, "not a field the planner knows; did you mean " + *near + "?");
      else if (ignore_unknown)
        continue;  // a config.json's other fields (initializer_range, bos_token_id, ...)
      else
        fail(a, "not a field of GPT-2's config (its fields: " + listed(kGpt2Fields) + ")");
      c.set_in_file.push_back(f);
    }
    labels = labels_named(labels, labels_given, labels_map, c);
    if (!classifier && (labels_given || labels_map)) {
      fail(labels_given ? *labels_given : *labels_map,
           "plans a classifier only beside architectures = [\"GPT2ForSequenceClassification\"], "
           "as transformers builds one; without it, GPT-2 is a language model");
    }
    if (classifier.value_or(false)) c.sequence_labels = labels;
    if (inner_given && inner != 4 * c.n_embd) {
      fail(*inner_given, "the planner's GPT has an MLP 4 x n_embd wide (" +
                             std::to_string(4 * c.n_embd) + "), not " + std::to_string(inner));
    }
    c.max_position_embeddings = positions;
    if (!seq) c.block_size = positions;  // run_clm.py's block_size: the model's longest
    if (c.block_size > positions) {
      fail(*seq, std::to_string(c.block_size) + " is longer than n_positions (" +
                     std::to_string(positions) + "), the longest sequence GPT-2 takes");
    }
    if (c.n_embd % c.n_head != 0) {
      const Assignment& later = embd && (!head || embd->line > head->line) ? *embd : *head;
      fail(later, "n_embd (" + std::to_string(c.n_embd) + ") must be a multiple of n_head (" +
                      std::to_string(c.n_head) + ")");
    }
    return c;
  }

  // A Transformer encoder: Hugging Face's fields for its model_type, then the batch and the
  // training. A config.json holds many fields that do not change what a step computes
  // (initializer_range, pad_token_id, ...): those are ignored, except a near-miss of a field.
  ModelConfig apply_encoder(const std::vector<Assignment>& assignments, bool ignore_unknown) const {
    ModelConfig c;
    c.name = std::filesystem::path(path_).stem().string();
    c.family = Family::Encoder;
    c.batch_size = 8;  // Trainer's per_device_train_batch_size
    c.gradient_accumulation_steps = 1;
    c.compile = false;
    std::optional<Assignment> labels_map, labels, seq, patch;
    for (const Assignment& a : assignments) {
      if (a.field != "model_type") continue;
      c.model_type = text(a);
      const auto known = std::find_if(kEncoders.begin(), kEncoders.end(),
                                      [&](const auto& e) { return c.model_type == e.model_type; });
      if (known == kEncoders.end())
        fail(a,
             "the planner knows the encoders \"bert\", \"distilbert\" and \"vit\" and the GPT "
             "\"gpt2\", not \"" +
                 c.model_type + "\"");
      c.vocab_size = known->vocab_size, c.hidden_size = known->hidden_size;
      c.num_hidden_layers = known->num_hidden_layers;
      c.num_attention_heads = known->num_attention_heads;
      c.intermediate_size = known->intermediate_size;
      c.dropout = known->hidden_dropout, c.attention_dropout = known->attention_dropout;
    }
    c.optimizer = "adamw";  // Trainer's
    const bool vit = c.model_type == "vit", distilbert = c.model_type == "distilbert";
    // the fields of this model_type, for "did you mean"
    std::vector<std::string> own;
    for (const char* f : kEncoderFields) {
      const std::string name = f;
      const bool other_config = renamed(name) && distilbert_name(name) != distilbert;
      if (other_config || (one_of(kTextFields, name) && vit) ||
          (one_of(kImageFields, name) && !vit))
        continue;
      own.push_back(name);
    }
    std::optional<Assignment> hidden, heads;
    for (const Assignment& a : assignments) {
      const std::string& f = a.field;
      if (f == "model_type" || f == "family") continue;  // family: "encoder", checked by apply
      if (const auto other = renamed(f); other && distilbert_name(f) != distilbert) {
        fail(a, distilbert ? "DistilBERT's config calls it " + *other
                           : "DistilBERT's name; " + c.model_type + "'s config calls it " + *other);
      }
      if (f == "hidden_size" || f == "dim")
        c.hidden_size = positive_integer(a), hidden = a;
      else if (f == "num_hidden_layers" || f == "n_layers")
        c.num_hidden_layers = positive_integer(a);
      else if (f == "num_attention_heads" || f == "n_heads")
        c.num_attention_heads = positive_integer(a), heads = a;
      else if (f == "intermediate_size" || f == "hidden_dim")
        c.intermediate_size = positive_integer(a);
      else if (f == "hidden_dropout_prob" || f == "dropout")
        c.dropout = fraction(a);
      else if (f == "attention_probs_dropout_prob" || f == "attention_dropout")
        c.attention_dropout = fraction(a);
      else if (one_of(kImageFields, f) && !vit)
        fail(a, "a ViT's field; a text encoder reads seq_length tokens");
      else if (one_of(kTextFields, f) && vit)
        fail(a, "a text encoder's field; a ViT reads images of image_size");
      else if (f == "vocab_size")
        c.vocab_size = positive_integer(a);
      else if (f == "max_position_embeddings")
        c.max_position_embeddings = positive_integer(a);
      else if (f == "type_vocab_size")
        c.type_vocab_size = positive_integer(a);
      else if (f == "seq_length")
        c.seq_length = positive_integer(a), seq = a;
      else if (f == "image_size")
        c.image_size = positive_integer(a);
      else if (f == "patch_size")
        c.patch_size = positive_integer(a), patch = a;
      else if (f == "num_channels")
        c.num_channels = positive_integer(a);
      else if (f == "num_labels")
        c.num_labels = positive_integer(a), labels = a;
      else if (f == "id2label") {
        require_labels(a);
        labels_map = a;
        continue;  // num_labels, as PretrainedConfig derives it
      } else if (f == "attn_implementation")
        c.attn_implementation = attn_implementation(a);
      else if (f == "batch_size")
        c.batch_size = positive_integer(a);
      else if (f == "optimizer")
        c.optimizer = optimizer(a);
      else if (f == "trainable_layers")
        c.trainable_layers = count(a);
      else if (const auto other = other_name(f, Family::Encoder, c.model_type))
        fail(a, c.model_type + "'s config calls it " + *other);
      else if (const auto near = near_field(f, own))
        fail(a, "not a field the planner knows; did you mean " + *near + "?");
      else if (ignore_unknown)
        continue;
      else {
        std::string fields;
        for (const std::string& n : own) fields += (fields.empty() ? "" : ", ") + n;
        fail(a, "not a field of " + c.model_type + "'s config (its fields: " + fields + ")");
      }
      c.set_in_file.push_back(f);
    }
    c.num_labels = labels_named(c.num_labels, labels, labels_map, c);
    if (c.hidden_size % c.num_attention_heads != 0) {
      const Assignment& later = hidden && (!heads || hidden->line > heads->line) ? *hidden : *heads;
      fail(later, "the hidden size (" + std::to_string(c.hidden_size) +
                      ") is not a multiple of the number of attention heads (" +
                      std::to_string(c.num_attention_heads) + ")");
    }
    if (vit && c.patch_size > c.image_size) {
      throw ConfigError(path_, patch ? patch->line : 0,
                        "patch_size (" + std::to_string(c.patch_size) +
                            ") is larger than image_size (" + std::to_string(c.image_size) + ")");
    }
    if (!vit && c.seq_length > c.max_position_embeddings) {
      throw ConfigError(path_, seq ? seq->line : 0,
                        "seq_length (" + std::to_string(c.seq_length) +
                            ") is longer than the model's max_position_embeddings (" +
                            std::to_string(c.max_position_embeddings) + ")");
    }
    check_trainable(c, assignments);
    return c;
  }

  // A torchvision CNN: its name, the images, the batch and the training.
  ModelConfig apply_cnn(const std::vector<Assignment>& assignments) const {
    ModelConfig c;
    c.name = std::filesystem::path(path_).stem().string();
    c.family = Family::Cnn;
    c.batch_size = 32;    // torchvision's references/classification/train.py
    c.num_labels = 1000;  // torchvision's num_classes
    c.optimizer = "sgd";  // the same script's --opt
    c.gradient_accumulation_steps = 1;
    c.compile = false;
    for (const Assignment& a : assignments) {
      if (a.field == "family") continue;  // "cnn", checked by apply
      if (a.field == "model") {
        c.model_type = text(a);
        const std::vector<std::string>& known = cnn_models();
        if (std::find(known.begin(), known.end(), c.model_type) == known.end()) {
          std::string names;
          for (const std::string& n : known) names += (names.empty() ? "" : ", ") + n;
          fail(a, "the planner builds torchvision's " + names + ", not \"" + c.model_type + "\"");
        }
      } else if (a.field == "image_size") {
        c.image_size = positive_integer(a);
        if (c.image_size < 32)
          fail(a, "images of at least 32 pixels a side pass the five halvings of these models");
      } else if (a.field == "num_classes")
        c.num_labels = positive_integer(a);
      else if (a.field == "batch_size")
        c.batch_size = positive_integer(a);
      else if (a.field == "optimizer")
        c.optimizer = optimizer(a);
      else if (a.field == "trainable_layers")
        c.trainable_layers = count(a);
      else if (const auto other = other_name(a.field, Family::Cnn, c.model_type))
        fail(a, "torchvision calls it " + *other);
      else if (const auto near = near_field(a.field, kCnnFields))
        fail(a, "not a field the planner knows; did you mean " + *near + "?");
      else
        fail(a, "not a field of a CNN (its fields: " + listed(kCnnFields) + ")");
      c.set_in_file.push_back(a.field);
    }
    check_trainable(c, assignments);
    return c;
  }

  static bool set(const ModelConfig& c, std::string_view field) {
    return std::find(c.set_in_file.begin(), c.set_in_file.end(), field) != c.set_in_file.end();
  }

  // trainable_layers: at most the model's blocks.
  void check_trainable(const ModelConfig& c, const std::vector<Assignment>& assignments) const {
    if (c.trainable_layers <= block_count(c)) return;
    for (const Assignment& a : assignments) {
      if (a.field == "trainable_layers") {
        fail(a, "the model has " + std::to_string(block_count(c)) +
                    " blocks to train; trainable_layers counts them from the last (0: the head "
                    "alone)");
      }
    }
  }

  std::int64_t count(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* i = std::get_if<std::int64_t>(&v);
    if (i == nullptr || *i < 0)
      fail(a, "expected a count of blocks from 0 (the head alone) up, got " + describe(v));
    return *i;
  }

  std::string optimizer(const Assignment& a) const {
    const std::string kind = text(a);
    if (kind != "adamw" && kind != "adam" && kind != "sgd")
      fail(a, "expected \"adamw\", \"adam\" or \"sgd\", got \"" + kind + "\"");
    return kind;
  }
  // A GPT's MLP activation: one of the two the planner's GPT computes.
  std::string activation_function(const Assignment& a) const {
    const std::string kind = text(a);
    if (kind != "gelu" && kind != "gelu_new")
      fail(a, "expected \"gelu\" or \"gelu_new\" (the planner's GPT computes those two), got \"" +
                  kind + "\"");
    return kind;
  }
  // GPT-2's `architectures`: the model class the checkpoint was saved from, one of the two the
  // planner builds.
  bool is_classifier(const Assignment& a) const {
    const std::string names = text(a);
    const bool lm = names.find("GPT2LMHeadModel") != std::string::npos,
               sequence = names.find("GPT2ForSequenceClassification") != std::string::npos;
    if (lm && sequence)
      fail(a, "names both GPT2LMHeadModel and GPT2ForSequenceClassification; plan one at a time");
    if (!lm && !sequence) {
      fail(a,
           "the planner builds GPT2LMHeadModel (a language model) and "
           "GPT2ForSequenceClassification, not " +
               names);
    }
    return sequence;
  }
  // id2label, read as the number of labels it names: one or more.
  void require_labels(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* n = std::get_if<std::int64_t>(&v);
    if (n == nullptr || *n < 1) fail(a, "names no labels; a classifier needs one or more");
  }
  // The labels: PretrainedConfig sets num_labels to len(id2label) where the config has one, and
  // the planner refuses a num_labels that disagrees with it.
  std::int64_t labels_named(std::int64_t num_labels, const std::optional<Assignment>& given,
                            const std::optional<Assignment>& id2label, ModelConfig& c) const {
    if (!id2label) return num_labels;
    const std::int64_t named = std::get<std::int64_t>(*id2label->value);
    if (given && num_labels != named) {
      fail(*given, "num_labels (" + std::to_string(num_labels) + ") and id2label (" +
                       std::to_string(named) + " labels) disagree; transformers takes id2label's");
    }
    if (!given) c.set_in_file.emplace_back("num_labels");
    return named;
  }
  std::string attn_implementation(const Assignment& a) const {
    const std::string kind = text(a);
    if (kind != "sdpa" && kind != "eager")
      fail(a, "expected \"sdpa\" or \"eager\", got \"" + kind + "\"");
    return kind;
  }

 private:
  std::string path_;
};

// --- TOML ----------------------------------------------------------------------------------

std::vector<Assignment> toml_assignments(std::string_view text, const std::string& path) {
  toml::table table;
  try {
    table = toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    throw ConfigError(path, static_cast<int>(error.source().begin.line),
                      std::string(error.description()));
  }
  std::vector<Assignment> out;
  for (const auto& [key, node] : table) {
    Assignment a{std::string(key.str()), static_cast<int>(node.source().begin.line), std::nullopt,
                 ""};
    if (const auto* i = node.as_integer())
      a.value = i->get();
    else if (const auto* d = node.as_floating_point())
      a.value = d->get();
    else if (const auto* b = node.as_boolean())
      a.value = b->get();
    else if (const auto* s = node.as_string())
      a.value = s->get();
    else if (const auto* list = node.as_array();
             list != nullptr && list->is_homogeneous<std::int64_t>()) {
      std::vector<std::int64_t> numbers;
      for (const toml::node& n : *list) numbers.push_back(n.as_integer()->get());
      a.value = numbers;
    } else if (list != nullptr && list->is_homogeneous<std::string>() &&
               key.str() == "architectures") {
      std::string names;  // GPT-2's model classes, joined by commas as a config.json's are
      for (const toml::node& n : *list) names += (names.empty() ? "" : ",") + n.as_string()->get();
      a.value = names;
    } else
      a.text = std::string(node.is_table()   ? "a table"
                           : node.is_array() ? "a list of other than integers"
                                             : "a date or time");
    out.push_back(std::move(a));
  }
  std::sort(out.begin(), out.end(),
            [](const Assignment& a, const Assignment& b) { return a.line < b.line; });
  return out;
}

// --- Hugging Face's config.json ---------------------------------------------------------------

// The line of a key's first appearance, for messages (nlohmann::json keeps no positions).
int json_line(std::string_view text, const std::string& key) {
  const std::size_t at = text.find("\"" + key + "\"");
  if (at == std::string_view::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

std::vector<Assignment> json_assignments(std::string_view text, const std::string& path) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    const auto byte = std::min<std::size_t>(error.byte, text.size());
    const int line = 1 + static_cast<int>(std::count(text.begin(),
                                                     text.begin() + static_cast<long>(byte), '\n'));
    std::string message = error.what();
    message =
        message.substr(message.find("parse error"));  // without nlohmann's "[json.exception...]"
    throw ConfigError(path, line, message);
  }
  if (!root.is_object())
    throw ConfigError(path, 0, "expected a JSON object of fields, as a config.json holds");
  std::vector<Assignment> out;
  for (const auto& [key, node] : root.items()) {
    Assignment a{key, json_line(text, key), std::nullopt, ""};
    if (node.is_number_integer())
      a.value = node.get<std::int64_t>();
    else if (node.is_number_float())
      a.value = node.get<double>();
    else if (node.is_boolean())
      a.value = node.get<bool>();
    else if (node.is_string())
      a.value = node.get<std::string>();
    else if (key == "id2label" && node.is_object())
      a.value = static_cast<std::int64_t>(node.size());  // the classes it names
    else if (key == "architectures" && node.is_array()) {
      std::string names;  // "GPT2LMHeadModel", or several joined by commas
      for (const auto& n : node)
        names += (names.empty() ? "" : ",") + (n.is_string() ? n.get<std::string>() : n.dump());
      a.value = names;
    } else
      a.text = node.is_null() ? "null" : node.is_array() ? "a list" : "an object";
    out.push_back(std::move(a));
  }
  std::sort(out.begin(), out.end(),
            [](const Assignment& a, const Assignment& b) { return a.line < b.line; });
  return out;
}

// --- nanoGPT's config/*.py --------------------------------------------------------------------

// The line without a trailing comment (a # outside quotes).
std::string without_comment(const std::string& line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (quote != 0) {
      if (line[i] == quote) quote = 0;
    } else if (line[i] == '\'' || line[i] == '"') {
      quote = line[i];
    } else if (line[i] == '#') {
      return line.substr(0, i);
    }
  }
  return line;
}

std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

bool is_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A Python literal the planner reads: True/False, a number, a quoted string, or a product of
// integers (gradient_accumulation_steps = 5 * 8).
std::optional<Value> python_value(const std::string& text) {
  if (text == "True") return Value(true);
  if (text == "False") return Value(false);
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
      text.back() == text.front() && text.find(text.front(), 1) == text.size() - 1) {
    return Value(text.substr(1, text.size() - 2));
  }
  const bool negative = !text.empty() && text[0] == '-';
  const std::string unsigned_text =
      !text.empty() && (text[0] == '-' || text[0] == '+') ? text.substr(1) : text;
  std::int64_t product = negative ? -1 : 1;
  bool integers = !trimmed(unsigned_text).empty();
  std::istringstream factors(unsigned_text);
  for (std::string factor; integers && std::getline(factors, factor, '*');) {
    factor = trimmed(factor);
    integers = is_digits(factor) && factor.size() <= 18;  // fits an int64
    if (!integers) break;
    const std::int64_t value = std::stoll(factor);
    integers = value == 0 || std::abs(product) <= std::numeric_limits<std::int64_t>::max() / value;
    if (integers) product *= value;
  }
  if (integers) return Value(product);
  double number = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, number);
  if (error == std::errc() && stop == end && text.find_first_of("0123456789") != std::string::npos)
    return Value(number);
  return std::nullopt;
}

bool is_name(std::string_view text) {
  return !text.empty() && !(text[0] >= '0' && text[0] <= '9') &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

std::vector<Assignment> python_assignments(std::string_view text) {
  std::vector<Assignment> out;
  std::istringstream in{std::string(text)};
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string code = trimmed(without_comment(line));
    const std::size_t equals = code.find('=');
    if (equals == std::string::npos || code.compare(equals, 2, "==") == 0)
      continue;  // imports, blank lines
    const std::string name = trimmed(code.substr(0, equals));
    if (!is_name(name)) continue;  // augmented or indexed assignments are not train.py globals
    Assignment a{name, number, std::nullopt, trimmed(code.substr(equals + 1))};
    a.value = python_value(a.text);
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

std::string encoder_field_name(std::string_view bert_name, const ModelConfig& config) {
  const auto distil = renamed(bert_name);
  return config.model_type == "distilbert" && distil ? *distil : std::string(bert_name);
}

const std::vector<std::string>& cnn_models() {
  static const std::vector<std::string> names{
      "resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "vgg11",   "vgg11_bn",
      "vgg13",    "vgg13_bn", "vgg16",    "vgg16_bn",  "vgg19",     "vgg19_bn"};
  return names;
}

std::int64_t block_count(const ModelConfig& c) {
  switch (c.family) {
    case Family::Mlp:
      return std::max<std::int64_t>(static_cast<std::int64_t>(c.widths.size()) - 2, 0);
    case Family::Encoder:
      return c.num_hidden_layers;
    case Family::Cnn:
      return c.model_type.starts_with("resnet") ? 4 : 5;
    case Family::Gpt:
      break;
  }
  return c.n_layer;
}

namespace {

std::string number(double x) {
  std::ostringstream out;
  out << x;
  const std::string text = out.str();
  return text.find_first_of(".e") == std::string::npos ? text + ".0" : text;
}

// An encoder's defaults: its config class's for the model, the planner's for the training.
std::vector<std::string> encoder_defaults(const ModelConfig& c,
                                          const std::function<bool(std::string_view)>& set) {
  const bool distil = c.model_type == "distilbert", vit = c.model_type == "vit";
  std::vector<std::string> out;
  const auto add = [&](std::string_view bert_name, const std::string& value) {
    const std::string name = encoder_field_name(bert_name, c);
    if (!set(name)) out.push_back(name + " " + value);
  };
  add("hidden_size", std::to_string(c.hidden_size));
  add("num_hidden_layers", std::to_string(c.num_hidden_layers));
  add("num_attention_heads", std::to_string(c.num_attention_heads));
  add("intermediate_size", std::to_string(c.intermediate_size));
  add("hidden_dropout_prob", number(c.dropout));
  add("attention_probs_dropout_prob", number(c.attention_dropout));
  if (vit) {
    add("image_size", std::to_string(c.image_size));
    add("patch_size", std::to_string(c.patch_size));
    add("num_channels", std::to_string(c.num_channels));
  } else {
    add("vocab_size", std::to_string(c.vocab_size));
    add("max_position_embeddings", std::to_string(c.max_position_embeddings));
    if (!distil) add("type_vocab_size", std::to_string(c.type_vocab_size));
    add("seq_length", std::to_string(c.seq_length));
  }
  add("num_labels", std::to_string(c.num_labels));
  add("attn_implementation", "\"" + c.attn_implementation + "\"");
  add("batch_size", std::to_string(c.batch_size));
  add("optimizer", "\"" + c.optimizer + "\"");
  return out;
}

// GPT-2's config.json: GPT2Config's defaults for the model, Trainer's and the planner's for the
// training.
std::vector<std::string> gpt2_defaults(const ModelConfig& c,
                                       const std::function<bool(std::string_view)>& set) {
  std::vector<std::string> out;
  const auto add = [&](std::string_view field, const std::string& value) {
    if (!set(field)) out.push_back(std::string(field) + " " + value);
  };
  add("n_layer", std::to_string(c.n_layer));
  add("n_head", std::to_string(c.n_head));
  add("n_embd", std::to_string(c.n_embd));
  add("vocab_size", std::to_string(c.vocab_size));
  add("seq_length", std::to_string(c.block_size) + " (n_positions)");
  add("n_inner", "null (4 x n_embd)");
  add("resid_pdrop", number(c.dropout));
  add("activation_function", "\"" + c.activation_function + "\"");
  if (c.sequence_labels > 0) add("num_labels", std::to_string(c.sequence_labels));
  add("attn_implementation", "\"" + c.attn_implementation + "\"");
  add("batch_size", std::to_string(c.batch_size));
  add("gradient_accumulation_steps", std::to_string(c.gradient_accumulation_steps));
  add("optimizer", "\"" + c.optimizer + "\"");
  add("compile", c.compile ? "true" : "false");
  return out;
}

}  // namespace

std::vector<std::string> defaulted_fields(const ModelConfig& c) {
  const auto set = [&](std::string_view field) {
    return std::find(c.set_in_file.begin(), c.set_in_file.end(), field) != c.set_in_file.end();
  };
  if (c.family == Family::Encoder) return encoder_defaults(c, set);
  if (c.family == Family::Cnn) {
    std::vector<std::string> out;
    if (!set("image_size")) out.push_back("image_size " + std::to_string(c.image_size));
    if (!set("num_classes")) out.push_back("num_classes " + std::to_string(c.num_labels));
    if (!set("batch_size")) out.push_back("batch_size " + std::to_string(c.batch_size));
    if (!set("optimizer")) out.push_back("optimizer \"" + c.optimizer + "\"");
    return out;
  }
  if (c.family == Family::Mlp) {
    std::vector<std::string> out;
    if (!set("batch_size")) out.push_back("batch_size " + std::to_string(c.batch_size));
    if (!set("dropout"))
      out.push_back("dropout " + std::string(c.dropout == 0 ? "0.0" : std::to_string(c.dropout)));
    if (!set("optimizer")) out.push_back("optimizer \"" + c.optimizer + "\"");
    return out;
  }
  if (c.model_type == "gpt2") return gpt2_defaults(c, set);
  const bool pretrained = c.init_from.starts_with("gpt2");  // the checkpoint gives the shape
  std::vector<std::string> out;
  const auto add = [&](std::string_view field, const std::string& value,
                       bool from_checkpoint = false) {
    if (!set(field) && !(pretrained && from_checkpoint))
      out.push_back(std::string(field) + " " + value);
  };
  add("n_layer", std::to_string(c.n_layer), true);
  add("n_head", std::to_string(c.n_head), true);
  add("n_embd", std::to_string(c.n_embd), true);
  add("block_size", std::to_string(c.block_size));
  add("batch_size", std::to_string(c.batch_size));
  add("vocab_size",
      std::to_string(c.vocab_size) + (c.dataset == "shakespeare_char"
                                          ? " (shakespeare_char's meta.pkl)"
                                          : " (GPT-2's, padded)"),
      true);
  add("gradient_accumulation_steps", std::to_string(c.gradient_accumulation_steps));
  add("dropout", c.dropout == 0 ? "0.0" : std::to_string(c.dropout));
  add("bias", c.bias ? "True" : "False", true);
  add("num_labels",
      c.sequence_labels == 0 ? "0 (a language model)" : std::to_string(c.sequence_labels));
  add("activation_function", "\"" + c.activation_function + "\"");
  add("attn_implementation", "\"" + c.attn_implementation + "\"");
  add("compile", c.compile ? "True" : "False");
  add("optimizer", "\"" + c.optimizer + "\"");
  return out;
}

ConfigError::ConfigError(const std::string& path, int line, const std::string& message)
    : std::runtime_error(path + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " +
                         message) {}

ModelConfig parse_toml_config(std::string_view text, const std::string& path) {
  return Applier(path).apply(toml_assignments(text, path), /*ignore_unknown=*/false);
}

// A nanoGPT config file sets whatever train.py global it likes; the planner reads the ones
// that shape the model and the step and ignores the rest, unread, except a name one or two
// letters from one of its fields, which is taken for a misspelling of it.
ModelConfig parse_python_config(std::string_view text, const std::string& path) {
  return Applier(path).apply(python_assignments(text), /*ignore_unknown=*/true);
}

// A config.json: Hugging Face names the model's type in it; the planner's own fields (the batch,
// the sequence length, the optimizer, trainable_layers) may sit beside the model's.
ModelConfig parse_json_config(std::string_view text, const std::string& path) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw ConfigError(path, 0, "the file is empty; a config.json is an object of fields");
  std::vector<Assignment> assignments = json_assignments(text, path);
  // transformers keeps its own bookkeeping under names that begin with an underscore
  // (_name_or_path, _num_labels in older files): not the model's fields
  std::erase_if(assignments, [](const Assignment& a) { return a.field.starts_with("_"); });
  const bool typed = std::any_of(assignments.begin(), assignments.end(),
                                 [](const Assignment& a) { return a.field == "model_type"; });
  if (!typed) {
    throw ConfigError(path, 0,
                      "a config.json names its model_type; the planner reads \"bert\", "
                      "\"distilbert\", \"vit\" and \"gpt2\" (MLPs and CNNs are planned from "
                      "TOML, a GPT from nanoGPT's config/*.py too)");
  }
  return Applier(path).apply(assignments, /*ignore_unknown=*/true);
}

ModelConfig read_model_config(const std::filesystem::path& path) {
  constexpr std::uintmax_t kLimit = 4u << 20;  // a config is a few KiB
  std::string text;
  try {
    text = engine::notebook::read_text_file(path.string(), kLimit);
  } catch (const engine::notebook::UnreadableFile& e) {
    throw ConfigError(path.string(), 0, std::string("cannot read the file: ") + e.what());
  }
  if (path.extension() == ".py") return parse_python_config(text, path.string());
  if (path.extension() == ".json") return parse_json_config(text, path.string());
  return parse_toml_config(text, path.string());
}

}  // namespace planner
