// GPT-2 as transformers configures it: a checkpoint's config.json (gpt2, distilgpt2, a fine-tuned
// one) with `"model_type": "gpt2"`, read into the GPT family's settings. GPT2Config's defaults:
// 12 layers, 12 heads, 768 wide, 50257 tokens, 1024 positions, biases, gelu_new, dropout 0.1;
// Trainer's: batch 8, AdamW. The head is the language model's, tied to the token embedding,
// unless `architectures` names GPT2ForSequenceClassification: then num_labels (or id2label) labels.

#include <algorithm>

#include "families/gpt.h"

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace families::gpt2 {

// GPT2Config's fields the planner reads, and its own beside them.
const std::vector<std::string> kFields{"model_type",
                                       "architectures",
                                       "n_layer",
                                       "n_head",
                                       "n_embd",
                                       "vocab_size",
                                       "n_positions",
                                       "n_inner",
                                       "activation_function",
                                       "resid_pdrop",
                                       "num_labels",
                                       "id2label",
                                       "seq_length",
                                       "batch_size",
                                       "gradient_accumulation_steps",
                                       "optimizer",
                                       "trainable_layers",
                                       "attn_implementation",
                                       "compile",
                                       "autocast",
                                       "log_interval",
                                       "gradient_checkpointing"};

// `architectures`: the model class the checkpoint was saved from, one of the two the planner
// builds. Whether it is the classifier.
bool is_classifier(const ConfigFields& in, const Field& f) {
  const std::string names = in.text(f);
  const bool lm = names.find("GPT2LMHeadModel") != std::string::npos,
             sequence = names.find("GPT2ForSequenceClassification") != std::string::npos;
  if (lm && sequence)
    in.fail(f, "names both GPT2LMHeadModel and GPT2ForSequenceClassification; plan one at a time");
  if (!lm && !sequence) {
    in.fail(f,
            "the planner builds GPT2LMHeadModel (a language model) and "
            "GPT2ForSequenceClassification, not " +
                names);
  }
  return sequence;
}

// What GPT-2's config reads as it is read; `labels`, `inner` and `classifier` until checked.
struct Gpt2Reading {
  std::int64_t labels = 2, inner = 0;
  std::optional<bool> classifier;  // architectures names GPT2ForSequenceClassification
};

std::vector<FieldRule> gpt2_rules(const ConfigFields& in, ModelConfig& c, Gpt2Reading& r) {
  GptSettings& g = c.as<GptSettings>();
  std::vector<FieldRule> rules{
      choosing_rule("model_type"),  // "gpt2"
      choosing_rule("family"),      // "gpt", checked by the registry
      {"architectures", [&](const Field& f) { r.classifier = is_classifier(in, f); }},
      size_rule(in, "n_layer", g.n_layer, limits::kLayers),
      size_rule(in, "n_head", g.n_head, limits::kHeads),
      size_rule(in, "n_embd", g.n_embd, limits::kWidth),
      size_rule(in, "vocab_size", g.vocab_size, limits::kVocabulary),
      size_rule(in, "n_positions", g.n_positions, limits::kSequence),
      {"n_inner",
       [&](const Field& f) {  // JSON's null: GPT2Config's default, 4 x n_embd
         if (f.as_written != "null") r.inner = in.positive_integer(f, limits::kFeedForward);
       }},
      {"activation_function",
       [&](const Field& f) { g.activation_function = gpt_activation(in, f); }},
      probability_rule(in, "resid_pdrop", g.dropout),
      size_rule(in, "num_labels", r.labels, limits::kClasses),
      {"id2label", [&](const Field& f) { require_labels(in, f); }, false},  // gives num_labels
      size_rule(in, "seq_length", g.block_size, limits::kSequence),
      {"attn_implementation",
       [&](const Field& f) {
         g.attn_implementation = in.choice(f, {"sdpa", "eager"});
       }},
      yes_no_rule(in, "compile", g.compile),
  };
  for (FieldRule& rule : shared_rules(in, c)) rules.push_back(std::move(rule));
  return rules;
}

// The planner's and Trainer's names for GPT-2's fields: what GPT-2's config calls them.
std::optional<std::string> other_library_name(std::string_view name) {
  if (name == "block_size" || name == "seq_len" || name == "max_length")
    return "a GPT-2 config calls the tokens per sequence seq_length (n_positions is the longest it "
           "takes)";
  if (name == "dropout") return "GPT-2's config calls it resid_pdrop";
  if (name == "bias") return "GPT-2's layers always have biases";
  if (name == "per_device_train_batch_size")
    return "the planner calls Trainer's per_device_train_batch_size batch_size";
  return std::nullopt;
}

// A config.json's other fields (initializer_range, bos_token_id, ...) are ignored, but not a
// near miss of a field; in TOML nothing else is taken.
void other_field(const ConfigFields& in, const Field& f) {
  refuse_input_field(in, f,
                     "a GPT's batches are windows of its token file, read in the training "
                     "process (train.py's get_batch)");
  if (const auto message = other_library_name(f.name)) in.fail(f, *message);
  if (const auto near = near_name(f.name, kFields))
    in.fail(f, "not a field the planner knows; did you mean " + *near + "?");
  if (!in.open()) in.fail(f, "not a field of GPT-2's config (its fields: " + listed(kFields) + ")");
}

// The head, n_inner and the sequence, once every field is read.
void check_gpt2(const ConfigFields& in, ModelConfig& c, const Gpt2Reading& r) {
  GptSettings& g = c.as<GptSettings>();
  const std::int64_t labels = labels_named(in, r.labels, c);
  const Field* labels_field = in.has("num_labels") ? in.last("num_labels") : in.last("id2label");
  if (!r.classifier && labels_field != nullptr) {
    in.fail(*labels_field,
            "plans a classifier only beside architectures = [\"GPT2ForSequenceClassification\"], "
            "as transformers builds one; without it, GPT-2 is a language model");
  }
  if (r.classifier.value_or(false)) g.num_labels = labels;
  if (const Field* inner = in.last("n_inner"); r.inner != 0 && r.inner != 4 * g.n_embd) {
    in.fail(*inner, "the planner's GPT has an MLP 4 x n_embd wide (" +
                        std::to_string(4 * g.n_embd) + "), not " + std::to_string(r.inner));
  }
  const Field* seq = in.last("seq_length");
  if (seq == nullptr) g.block_size = g.n_positions;  // run_clm.py's block_size: the model's longest
  if (g.block_size > g.n_positions) {
    in.fail(*seq, std::to_string(g.block_size) + " is longer than n_positions (" +
                      std::to_string(g.n_positions) + "), the longest sequence GPT-2 takes");
  }
  check_heads(in, g, in.last("n_embd"), in.last("n_head"));
}

}  // namespace families::gpt2

ModelConfig read_gpt2_config(const ConfigFields& in) {
  ModelConfig c;
  c.name = in.stem();
  c.batch_size = 8;  // Trainer's per_device_train_batch_size
  GptSettings& g = c.as<GptSettings>();
  g.model_type = "gpt2";
  g.vocab_size = 50257, g.dropout = 0.1, g.bias = true, g.activation_function = "gelu_new";
  g.compile = false;
  families::gpt2::Gpt2Reading reading;
  c.set_in_file = in.apply(families::gpt2::gpt2_rules(in, c, reading),
                           [&](const Field& f) { families::gpt2::other_field(in, f); });
  families::gpt2::check_gpt2(in, c, reading);
  check_trainable(in, c, c.as<GptSettings>().n_layer);
  check_gpt_sizes(in, c);
  return c;
}

std::vector<std::string> gpt2_field_names() { return families::gpt2::kFields; }

std::vector<std::string> gpt2_defaulted_fields(const ModelConfig& c) {
  const GptSettings& g = c.as<GptSettings>();
  std::vector<std::string> out;
  const auto add = [&](std::string_view field, const std::string& value) {
    if (std::find(c.set_in_file.begin(), c.set_in_file.end(), field) == c.set_in_file.end())
      out.push_back(std::string(field) + " " + value);
  };
  add("n_layer", std::to_string(g.n_layer));
  add("n_head", std::to_string(g.n_head));
  add("n_embd", std::to_string(g.n_embd));
  add("vocab_size", std::to_string(g.vocab_size));
  add("seq_length", std::to_string(g.block_size) + " (n_positions)");
  add("n_inner", "null (4 x n_embd)");
  add("resid_pdrop", number(g.dropout));
  add("activation_function", "\"" + g.activation_function + "\"");
  if (g.num_labels > 0) add("num_labels", std::to_string(g.num_labels));
  add("attn_implementation", "\"" + g.attn_implementation + "\"");
  add("batch_size", std::to_string(c.batch_size));
  add("optimizer", "\"" + c.optimizer + "\"");
  add("compile", g.compile ? "true" : "false");
  return out;
}

}  // namespace planner
