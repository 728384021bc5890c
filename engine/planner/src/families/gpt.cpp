// The GPT family: nanoGPT's model.py trained by train.py, read from TOML or from one of nanoGPT's
// config/*.py files with train.py's names and defaults (GPT-2 small on OpenWebText); or GPT-2 as
// transformers configures it (gpt2_config.cpp).

#include "families/gpt.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace planner {
// Named, not anonymous: the planner is compiled as one unity file.
namespace families::gpt {

// A GPT's fields in nanoGPT's names, beside `family`.
const std::vector<std::string> kFields{"n_layer",
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
                                       "trainable_layers",
                                       "autocast",
                                       "log_interval",
                                       "gradient_checkpointing",
                                       "dtype"};

// train.py's globals that do not change what an iteration computes: accepted and ignored.
const std::vector<std::string> kIgnored{
    "out_dir",      "eval_interval",  "eval_iters",     "eval_only",     "always_save_checkpoint",
    "wandb_log",    "wandb_project",  "wandb_run_name", "learning_rate", "max_iters",
    "weight_decay", "beta1",          "beta2",          "grad_clip",     "decay_lr",
    "warmup_iters", "lr_decay_iters", "min_lr",         "backend",       "device"};

// model.py's from_pretrained: the GPT-2 checkpoints' shapes (bias on, GPT-2's 50257 tokens).
struct Pretrained {
  const char* name;
  std::int64_t n_layer, n_head, n_embd;
};
constexpr std::array<Pretrained, 4> kPretrained{{{"gpt2", 12, 12, 768},
                                                 {"gpt2-medium", 24, 16, 1024},
                                                 {"gpt2-large", 36, 20, 1280},
                                                 {"gpt2-xl", 48, 25, 1600}}};

bool is_gpt2(const GptSettings& gpt) { return gpt.model_type == "gpt2"; }

std::vector<FieldRule> nanogpt_rules(const ConfigFields& in, ModelConfig& c) {
  GptSettings& g = c.as<GptSettings>();
  std::vector<FieldRule> rules{
      choosing_rule("family"),  // "gpt", checked by the registry
      size_rule(in, "n_layer", g.n_layer, limits::kLayers),
      size_rule(in, "n_head", g.n_head, limits::kHeads),
      size_rule(in, "n_embd", g.n_embd, limits::kWidth),
      size_rule(in, "block_size", g.block_size, limits::kSequence),
      size_rule(in, "vocab_size", g.vocab_size, limits::kVocabulary),
      size_rule(in, "num_labels", g.num_labels, limits::kClasses),
      probability_rule(in, "dropout", g.dropout),
      yes_no_rule(in, "bias", g.bias),
      yes_no_rule(in, "compile", g.compile),
      {"activation_function",
       [&](const Field& f) { g.activation_function = gpt_activation(in, f); }},
      {"attn_implementation",
       [&](const Field& f) {
         g.attn_implementation = in.choice(f, {"sdpa", "eager"});
       }},
      {"dataset", [&](const Field& f) { g.dataset = in.text(f); }},
      {"init_from", [&](const Field& f) { g.init_from = in.text(f); }},
      {"dtype",
       [&](const Field& f) {
         g.dtype = in.choice(f, {"float32", "bfloat16", "float16"});
       }},
  };
  for (FieldRule& rule : shared_rules(in, c)) rules.push_back(std::move(rule));
  return rules;
}

// A field that is not nanoGPT's: one of train.py's other globals is ignored; a misspelling of a
// field, or (in TOML) anything else, is refused.
void other_field(const ConfigFields& in, const Field& f) {
  refuse_input_field(in, f,
                     "nanoGPT's batches are windows of its token file, read in the training "
                     "process (train.py's get_batch)");
  if (f.name == "widths") {
    in.fail(f,
            "an MLP's field; a GPT has n_layer, n_head and n_embd (family = \"mlp\" plans an MLP)");
  }
  if (std::find(kIgnored.begin(), kIgnored.end(), f.name) != kIgnored.end()) return;
  if (const auto near = near_name(f.name, kFields))
    in.fail(f, "not a field the planner knows; did you mean " + *near + "?");
  if (!in.open()) {
    in.fail(f, "not a field the planner knows (a GPT's fields: " + listed(kFields) +
                   "; family = \"mlp\", model_type = \"bert\" or model = \"resnet50\" plan other "
                   "families)");
  }
}

// init_from = "gpt2" ...: the checkpoint's shape, as train.py takes it (from_pretrained keeps
// only dropout, and a shorter block_size). Returns whether it did.
bool take_pretrained_shape(const ConfigFields& in, GptSettings& g) {
  const auto p = std::find_if(kPretrained.begin(), kPretrained.end(),
                              [&](const Pretrained& p) { return g.init_from == p.name; });
  if (p == kPretrained.end()) return false;
  g.n_layer = p->n_layer, g.n_head = p->n_head, g.n_embd = p->n_embd, g.vocab_size = 50257;
  g.bias = true;
  const Field* block = in.last("block_size");
  if (block != nullptr && g.block_size > 1024) {
    in.fail(*block,
            "GPT-2's checkpoints hold 1024 positions; train.py crops a model to a shorter "
            "block_size but cannot grow it to " +
                std::to_string(g.block_size));
  }
  if (block == nullptr) g.block_size = 1024;
  return true;
}

ModelConfig read_nanogpt_config(const ConfigFields& in) {
  ModelConfig c;
  c.name = in.stem();
  c.gradient_accumulation_steps = 5 * 8;
  GptSettings& g = c.as<GptSettings>();
  c.set_in_file = in.apply(nanogpt_rules(in, c), [&](const Field& f) { other_field(in, f); });
  if (c.set_in_file.empty()) {
    in.fail_file(
        "sets none of the planner's fields, so the plan would be train.py's defaults (GPT-2 124M "
        "on OpenWebText); set at least n_layer, n_head, n_embd, block_size and batch_size, or "
        "name another family (family = \"mlp\", model_type = \"bert\", model = \"resnet50\")");
  }
  if (!in.has("vocab_size"))  // meta.pkl's, else train.py's fallback
    g.vocab_size = g.dataset == "shakespeare_char" ? 65 : 50304;
  if (!take_pretrained_shape(in, g)) check_heads(in, g, in.last("n_embd"), in.last("n_head"));
  check_trainable(in, c, g.n_layer);
  check_gpt_sizes(in, c);
  return c;
}

std::vector<std::string> nanogpt_defaulted_fields(const ModelConfig& c) {
  const GptSettings& g = c.as<GptSettings>();
  const bool pretrained = g.init_from.starts_with("gpt2");  // the checkpoint gives the shape
  std::vector<std::string> out;
  const auto add = [&](std::string_view field, const std::string& value,
                       bool from_checkpoint = false) {
    const bool set =
        std::find(c.set_in_file.begin(), c.set_in_file.end(), field) != c.set_in_file.end();
    if (!set && !(pretrained && from_checkpoint)) out.push_back(std::string(field) + " " + value);
  };
  add("n_layer", std::to_string(g.n_layer), true);
  add("n_head", std::to_string(g.n_head), true);
  add("n_embd", std::to_string(g.n_embd), true);
  add("block_size", std::to_string(g.block_size));
  add("batch_size", std::to_string(c.batch_size));
  add("vocab_size",
      std::to_string(g.vocab_size) + (g.dataset == "shakespeare_char"
                                          ? " (shakespeare_char's meta.pkl)"
                                          : " (GPT-2's, padded)"),
      true);
  add("dropout", number(g.dropout));
  add("bias", g.bias ? "True" : "False", true);
  add("num_labels", g.num_labels == 0 ? "0 (a language model)" : std::to_string(g.num_labels));
  add("activation_function", "\"" + g.activation_function + "\"");
  add("attn_implementation", "\"" + g.attn_implementation + "\"");
  add("compile", g.compile ? "True" : "False");
  add("optimizer", "\"" + c.optimizer + "\"");
  return out;
}

class GptFamily final : public Family {
 public:
  std::string_view name() const override { return "gpt"; }
  std::vector<std::string> field_names() const override { return kFields; }

  bool names_model(const ConfigFields& in) const override {
    return std::any_of(in.fields().begin(), in.fields().end(), [](const Field& f) {
      const auto* s =
          f.name == "model_type" && f.value ? std::get_if<std::string>(&*f.value) : nullptr;
      return s != nullptr && *s == "gpt2";
    });
  }
  std::string_view naming_field() const override { return "model_type"; }
  std::string family_refusal(const std::string& written) const override {
    return "model_type \"gpt2\" is a GPT: family = \"gpt\", or no family, not \"" + written + "\"";
  }
  ModelConfig read(const ConfigFields& in) const override {
    return names_model(in) ? read_gpt2_config(in) : read_nanogpt_config(in);
  }

  std::string summary(const ModelConfig& c) const override {
    const GptSettings& g = c.as<GptSettings>();
    return fmt::format(
        "{} layers, {} heads, {} wide, context {}, batch {} x {} micro-step{}, dropout {}, "
        "{}{}{}{}, {}, compile {}",
        g.n_layer, g.n_head, g.n_embd, g.block_size, c.batch_size, c.gradient_accumulation_steps,
        c.gradient_accumulation_steps == 1 ? "" : "s", g.dropout, g.bias ? "biases" : "no biases",
        g.activation_function == "gelu" ? "" : ", " + g.activation_function,
        g.attn_implementation == "sdpa" ? "" : ", eager attention",
        g.num_labels == 0 ? "" : fmt::format(", classifying {} labels", g.num_labels), c.optimizer,
        g.compile ? "on" : "off");
  }
  std::int64_t block_count(const ModelConfig& c) const override {
    return c.as<GptSettings>().n_layer;
  }
  std::vector<std::string> defaulted_fields(const ModelConfig& c) const override {
    return is_gpt2(c.as<GptSettings>()) ? gpt2_defaulted_fields(c) : nanogpt_defaulted_fields(c);
  }
  // train.py's `dtype` does nothing on a Mac: its ctx autocasts only on CUDA.
  std::vector<std::string> notes(const ModelConfig& c) const override {
    const std::string& dtype = c.as<GptSettings>().dtype;
    const auto& set = c.set_in_file;
    if (dtype == "float32" || std::find(set.begin(), set.end(), "dtype") == set.end()) return {};
    const std::string why = "dtype '" + dtype +
                            "' is the dtype of train.py's autocast, which it enters on CUDA only "
                            "(device_type is 'cpu' for mps, and ctx a nullcontext())";
    if (c.autocast == "off") {
      return {why + ": on a Mac the step runs in float32, as planned here; autocast = \"" + dtype +
              "\" plans a train.py changed to autocast on mps"};
    }
    return {why + "; planned with autocast = \"" + c.autocast +
            "\", as a train.py changed to autocast on mps runs"};
  }
  std::string defaults_source(const ModelConfig& c) const override {
    return is_gpt2(c.as<GptSettings>()) ? "the defaults of transformers' GPT2Config and Trainer"
                                        : "train.py's defaults";
  }
  std::string step_description(const ModelConfig& c) const override {
    return is_gpt2(c.as<GptSettings>())
               ? "a steady training step as Trainer runs it (forward, backward, the gradients "
                 "clipped to 1.0, the optimizer's step)"
               : "a steady training iteration of nanoGPT's train.py";
  }
  std::string memory_knobs(const ModelConfig& c) const override {
    return is_gpt2(c.as<GptSettings>()) ? "batch_size or seq_length" : "batch_size or block_size";
  }
  nlohmann::json settings_json(const ModelConfig& c) const override {
    const GptSettings& g = c.as<GptSettings>();
    nlohmann::json j{{"n_layer", g.n_layer},
                     {"n_head", g.n_head},
                     {"n_embd", g.n_embd},
                     {"block_size", g.block_size},
                     {"vocab_size", g.vocab_size},
                     {"dropout", g.dropout},
                     {"bias", g.bias},
                     {"num_labels", g.num_labels},
                     {"activation_function", g.activation_function},
                     {"attn_implementation", g.attn_implementation},
                     {"compile", g.compile}};
    if (is_gpt2(g)) j["model_type"] = g.model_type;
    return j;
  }

  bool compiles(const ModelConfig& c) const override { return c.as<GptSettings>().compile; }
  std::unique_ptr<TrainingRun::State> make_run(const ModelConfig& c, engine::Device device,
                                               bool compiled) const override {
    return make_gpt_run(c, device, compiled);
  }
};

}  // namespace families::gpt

std::string gpt_activation(const ConfigFields& in, const Field& field) {
  return in.choice(field, {"gelu", "gelu_new"}, "the planner's GPT computes those two");
}

void check_heads(const ConfigFields& in, const GptSettings& g, const Field* embd,
                 const Field* head) {
  if (g.n_embd % g.n_head == 0) return;
  const Field& later =
      embd != nullptr && (head == nullptr || embd->line > head->line) ? *embd : *head;
  in.fail(later, "n_embd (" + std::to_string(g.n_embd) + ") must be a multiple of n_head (" +
                     std::to_string(g.n_head) + ")");
}

void check_gpt_sizes(const ConfigFields& in, const ModelConfig& c) {
  const GptSettings& g = c.as<GptSettings>();
  const std::string seq = g.model_type == "gpt2" ? "seq_length" : "block_size";
  const std::pair<std::string, std::int64_t> batch{"batch_size", c.batch_size},
      tokens{seq, g.block_size};
  check_tensor_sizes(
      in, {{"the logits",
            {batch, tokens,
             g.num_labels > 0 ? std::pair{std::string("num_labels"), g.num_labels}
                              : std::pair{std::string("vocab_size"), g.vocab_size}}},
           {"the attention scores", {batch, {"n_head", g.n_head}, tokens, tokens}},
           {"the MLP's activations", {batch, tokens, {"4 x n_embd", 4 * g.n_embd}}},
           {"the token embedding", {{"vocab_size", g.vocab_size}, {"n_embd", g.n_embd}}}});
}

const Family& gpt_family() {
  static const families::gpt::GptFamily family;
  return family;
}

}  // namespace planner
