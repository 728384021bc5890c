#include "planner/plan.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

#include "engine/notebook/terminal_text.h"
#include "planner/model_config.h"
#include "planner/prediction.h"
#include "planner/recommendation.h"
#include "planner/training_step.h"

namespace planner {
namespace {

struct Options {
  std::string config;
  std::optional<std::string> machine;
  bool sweep_batch = false;
  bool json = false;
};

// The arguments, or a message saying what is wrong with them.
std::variant<Options, std::string> parse_arguments(const std::vector<std::string>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--machine") {
      if (i + 1 == args.size() || args[i + 1].starts_with("--"))
        return std::string("--machine needs a machine's name");
      o.machine = args[++i];
    } else if (args[i] == "--sweep") {
      if (i + 1 == args.size() || args[i + 1] != "batch")
        return std::string("--sweep sweeps the batch: --sweep batch");
      o.sweep_batch = true;
      ++i;
    } else if (args[i] == "--json") {
      o.json = true;
    } else if (args[i].starts_with("--")) {
      return "unknown option " + args[i];
    } else if (o.config.empty()) {
      o.config = args[i];
    } else {
      return "one config file at a time, not also " + args[i];
    }
  }
  if (o.config.empty())
    return std::string(
        "which model? Give its config file: TOML, nanoGPT's config/*.py or a Hugging Face "
        "config.json");
  return o;
}

// "10.65M" (or "174.57B"), or the count itself where two decimals of millions would hide it.
std::string millions(std::int64_t count) {
  if (count < 10'000) return std::to_string(count);
  if (count >= 1'000'000'000) return fmt::format("{:.2f}B", static_cast<double>(count) / 1e9);
  return fmt::format("{:.2f}M", static_cast<double>(count) / 1e6);
}

// ", training the last 2 layers and the head (14.18M of them)", where the config freezes some.
std::string frozen_text(const ModelConfig& c) {
  if (c.trainable_layers < 0) return "";
  const char* unit =
      c.family == Family::Cnn ? (c.model_type.starts_with("resnet") ? "stage" : "block") : "layer";
  std::string which = "training the head alone";
  if (c.trainable_layers == 1) which = fmt::format("training the last {} and the head", unit);
  if (c.trainable_layers > 1)
    which = fmt::format("training the last {} {}s and the head", c.trainable_layers, unit);
  return fmt::format(", {} ({} of them)", which, millions(parameter_count(c, true)));
}

std::string encoder_name(const ModelConfig& c) {
  if (c.model_type == "vit") return "a ViT";
  return c.model_type == "distilbert" ? "a DistilBERT" : "a BERT";
}

// The transformers class a plan trains, whatever class the checkpoint's `architectures` names
// (bert-base-uncased's config.json says BertForMaskedLM, its pre-training head).
std::string encoder_class(const ModelConfig& c) {
  if (c.model_type == "vit") return "ViTForImageClassification";
  return c.model_type == "distilbert" ? "DistilBertForSequenceClassification"
                                      : "BertForSequenceClassification";
}

std::string describe(const ModelConfig& c) {
  const std::string parameters = millions(parameter_count(c)) + " parameters" + frozen_text(c);
  switch (c.family) {
    case Family::Mlp: {
      std::string widths;
      for (const std::int64_t w : c.widths)
        widths += (widths.empty() ? "" : "-") + std::to_string(w);
      return fmt::format("{}: an MLP classifier {}, batch {}, dropout {}, {}; {}", c.name, widths,
                         c.batch_size, c.dropout, c.optimizer, parameters);
    }
    case Family::Encoder: {
      const std::string input =
          c.model_type == "vit"
              ? fmt::format("{0}x{0} images in {1}x{1} patches", c.image_size, c.patch_size)
              : fmt::format("{} tokens a sequence", c.seq_length);
      return fmt::format(
          "{}: {} encoder trained as {}, {} layers, {} heads, {} wide, feed-forward {}, {}, "
          "batch {}, {} labels, {} attention, {}; {}",
          c.name, encoder_name(c), encoder_class(c), c.num_hidden_layers, c.num_attention_heads,
          c.hidden_size, c.intermediate_size, input, c.batch_size, c.num_labels,
          c.attn_implementation, c.optimizer, parameters);
    }
    case Family::Cnn:
      return fmt::format("{}: torchvision's {}, {}x{} images, batch {}, {} classes, {}; {}", c.name,
                         c.model_type, c.image_size, c.image_size, c.batch_size, c.num_labels,
                         c.optimizer, parameters);
    case Family::Gpt:
      break;
  }
  return fmt::format(
      "{}: {} layers, {} heads, {} wide, context {}, batch {} x {} micro-step{}, dropout {}, {}{}{}{}, "
      "{}, compile {}; {}",
      c.name, c.n_layer, c.n_head, c.n_embd, c.block_size, c.batch_size,
      c.gradient_accumulation_steps, c.gradient_accumulation_steps == 1 ? "" : "s", c.dropout,
      c.bias ? "biases" : "no biases",
      c.activation_function == "gelu" ? "" : ", " + c.activation_function,
      c.attn_implementation == "sdpa" ? "" : ", eager attention",
      c.sequence_labels == 0 ? "" : fmt::format(", classifying {} labels", c.sequence_labels),
      c.optimizer, c.compile ? "on" : "off", parameters);
}

// Where a family's defaults come from.
std::string defaults_source(const ModelConfig& c) {
  switch (c.family) {
    case Family::Mlp:
      return "the planner's defaults";
    case Family::Encoder: {
      const char* config = c.model_type == "vit"          ? "ViTConfig"
                           : c.model_type == "distilbert" ? "DistilBertConfig"
                                                          : "BertConfig";
      return fmt::format("the defaults of transformers' {} and Trainer, and the planner's", config);
    }
    case Family::Cnn:
      return "the defaults of torchvision and its reference training script";
    case Family::Gpt:
      break;
  }
  if (c.model_type == "gpt2") return "the defaults of transformers' GPT2Config and Trainer";
  return "train.py's defaults";
}

// At least three significant figures, so that the ratio printed beside short steps can be checked.
std::string ms(std::optional<double> seconds) {
  if (!seconds) return "-";
  const double milliseconds = *seconds * 1e3;
  return fmt::format("{:.{}f}", milliseconds, milliseconds < 10 ? 2 : milliseconds < 100 ? 1 : 0);
}

std::string memory_text(const Prediction& p) {
  const double gib = 1LL << 30;
  switch (p.memory) {
    case MpsMemory::Unavailable:
      return "no MPS";
    case MpsMemory::OutOfMemory:
      return fmt::format("out of memory (limit {:.2f} GiB)", allocator_limit(*p.machine) / gib);
    case MpsMemory::BufferTooLarge:
      return "a tensor too large for Metal";
    case MpsMemory::Unsupported:
      return "an operator MPS does not implement for these sizes";
    case MpsMemory::Swaps:
    case MpsMemory::Fits:
      break;
  }
  return fmt::format("{:.2f} of {:.1f} GiB free: {}", static_cast<double>(p.mps_bytes) / gib,
                     static_cast<double>(free_memory(*p.machine)) / gib,
                     p.memory == MpsMemory::Fits ? "fits" : "swaps");
}

// The config's first line and the values it took from defaults.
void print_config(const ModelConfig& config, std::ostream& out, std::size_t width) {
  using engine::notebook::wrap;
  out << wrap(describe(config), width);
  const std::vector<std::string> defaults = defaulted_fields(config);
  if (!defaults.empty()) {
    std::string list;
    for (const std::string& d : defaults) list += (list.empty() ? "" : ", ") + d;
    out << wrap("not in the file, so " + defaults_source(config) + ": " + list, width, "  ", "  ");
  }
}

void print_plan(const ModelConfig& config,
                const std::vector<const engine::MachineProfile*>& machines, std::ostream& out,
                std::size_t width) {
  using engine::notebook::wrap;
  print_config(config, out, width);
  out << wrap(config.family != Family::Gpt
                  ? "a steady training step (the batch copied in, forward, backward, the "
                    "optimizer's step), in milliseconds, as the course's cost model predicts it"
              : config.model_type == "gpt2"
                  ? "a steady training step as Trainer runs it (forward, backward, the gradients "
                    "clipped to 1.0, the optimizer's step), in milliseconds, as the course's cost "
                    "model predicts it"
                  : "a steady training iteration of nanoGPT's train.py, in milliseconds, as the "
                    "course's cost model predicts it",
              width)
      << "\n";
  // A table with the memory column where the terminal has room for it, the memory under each
  // row where it has not, and each machine's numbers one per line where even the table is too
  // wide.
  const std::string columns =
      fmt::format("{:<20} {:>8} {:>8} {:>9} {:>8}", "machine", "cpu", "mps", "compiled", "cpu/mps");
  const bool table = width >= columns.size();
  const bool memory_beside = width >= columns.size() + 2 + 32;
  if (table) out << columns << (memory_beside ? "  mps memory" : "") << "\n";
  for (const engine::MachineProfile* machine : machines) {
    const Prediction p = predict(config, *machine);
    const std::string speedup =
        p.mps_seconds ? fmt::format("{:.2f}x", p.cpu_seconds / *p.mps_seconds) : "-";
    if (table) {
      out << fmt::format("{:<20} {:>8} {:>8} {:>9} {:>8}", machine->name, ms(p.cpu_seconds),
                         ms(p.mps_seconds), ms(p.compiled_seconds), speedup);
    } else {
      out << fmt::format(
          "{}\n  cpu ms      {:>8}\n  mps ms      {:>8}\n  compiled ms {:>8}\n"
          "  cpu/mps     {:>8}",
          machine->name, ms(p.cpu_seconds), ms(p.mps_seconds), ms(p.compiled_seconds), speedup);
    }
    const std::string indent = table ? "     " : "  ";
    out << (memory_beside ? "  " + memory_text(p) + "\n"
                          : "\n" + wrap("mps memory: " + memory_text(p), width, indent, "     "));
    const Recommendation r = recommend(p, memory_knobs(config));
    out << wrap("-> " + r.lane + ": " + r.reasons.front(), width, "  ", "     ");
    for (std::size_t i = 1; i < r.reasons.size(); ++i)
      out << wrap(r.reasons[i], width, "     ", "     ");
  }
}

const char* memory_name(MpsMemory memory) {
  switch (memory) {
    case MpsMemory::Fits:
      return "fits";
    case MpsMemory::Swaps:
      return "swaps";
    case MpsMemory::OutOfMemory:
      return "out of memory";
    case MpsMemory::BufferTooLarge:
      return "buffer too large";
    case MpsMemory::Unsupported:
      return "not implemented on mps";
    case MpsMemory::Unavailable:
      break;
  }
  return "no mps";
}

nlohmann::json milliseconds_json(std::optional<double> seconds) {
  return seconds ? nlohmann::json(*seconds * 1e3) : nlohmann::json(nullptr);
}

nlohmann::json config_json(const ModelConfig& c) {
  nlohmann::json j;
  switch (c.family) {
    case Family::Mlp:
      j = {{"name", c.name},       {"family", "mlp"},
           {"widths", c.widths},   {"batch_size", c.batch_size},
           {"dropout", c.dropout}, {"optimizer", c.optimizer}};
      break;
    case Family::Encoder:
      j = {{"name", c.name},
           {"family", "encoder"},
           {"model_type", c.model_type},
           {"num_labels", c.num_labels},
           {"attn_implementation", c.attn_implementation},
           {"batch_size", c.batch_size},
           {"optimizer", c.optimizer}};
      {  // in the names the model's own config.json uses (DistilBERT renames these)
        const auto name = [&](std::string_view bert_name) {
          return encoder_field_name(bert_name, c);
        };
        j.update({{name("hidden_size"), c.hidden_size},
                  {name("num_hidden_layers"), c.num_hidden_layers},
                  {name("num_attention_heads"), c.num_attention_heads},
                  {name("intermediate_size"), c.intermediate_size},
                  {name("hidden_dropout_prob"), c.dropout},
                  {name("attention_probs_dropout_prob"), c.attention_dropout}});
      }
      if (c.model_type == "bert") j["type_vocab_size"] = c.type_vocab_size;
      if (c.model_type == "vit") {
        j.update({{"image_size", c.image_size},
                  {"patch_size", c.patch_size},
                  {"num_channels", c.num_channels}});
      } else {
        j.update({{"vocab_size", c.vocab_size},
                  {"max_position_embeddings", c.max_position_embeddings},
                  {"seq_length", c.seq_length}});
      }
      break;
    case Family::Cnn:
      j = {{"name", c.name},
           {"family", "cnn"},
           {"model", c.model_type},
           {"image_size", c.image_size},
           {"num_classes", c.num_labels},
           {"batch_size", c.batch_size},
           {"optimizer", c.optimizer}};
      break;
    case Family::Gpt:
      j = {{"name", c.name},
           {"family", "gpt"},
           {"n_layer", c.n_layer},
           {"n_head", c.n_head},
           {"n_embd", c.n_embd},
           {"block_size", c.block_size},
           {"batch_size", c.batch_size},
           {"gradient_accumulation_steps", c.gradient_accumulation_steps},
           {"vocab_size", c.vocab_size},
           {"dropout", c.dropout},
           {"bias", c.bias},
           {"num_labels", c.sequence_labels},
           {"activation_function", c.activation_function},
           {"attn_implementation", c.attn_implementation},
           {"compile", c.compile},
           {"optimizer", c.optimizer}};
      if (!c.model_type.empty()) j["model_type"] = c.model_type;  // "gpt2": GPT-2's config.json
      break;
  }
  j.update({{"trainable_layers",
             c.trainable_layers < 0 ? nlohmann::json("all") : nlohmann::json(c.trainable_layers)},
            {"parameters", parameter_count(c)},
            {"trained_parameters", parameter_count(c, true)},
            {"state_bytes", model_state_bytes(c)},
            {"defaults", defaulted_fields(c)}});
  return j;
}

// The mps side of a prediction: its memory, against the machine's limits.
nlohmann::json mps_memory_json(const Prediction& p) {
  return {{"memory", memory_name(p.memory)},
          {"mps_bytes", p.mps_bytes},
          {"free_bytes", free_memory(*p.machine)},
          {"allocator_limit_bytes", allocator_limit(*p.machine)},
          {"why", p.why}};
}

void print_plan_json(const ModelConfig& config,
                     const std::vector<const engine::MachineProfile*>& machines,
                     std::ostream& out) {
  nlohmann::json rows = nlohmann::json::array();
  for (const engine::MachineProfile* machine : machines) {
    const Prediction p = predict(config, *machine);
    const Recommendation r = recommend(p, memory_knobs(config));
    nlohmann::json row = {{"machine", machine->name},
                          {"cpu_ms", p.cpu_seconds * 1e3},
                          {"mps_ms", milliseconds_json(p.mps_seconds)},
                          {"compiled_ms", milliseconds_json(p.compiled_seconds)},
                          {"verdict", r.lane},
                          {"reasons", r.reasons}};
    row.update(mps_memory_json(p));
    rows.push_back(row);
  }
  out << nlohmann::json{{"config", config_json(config)}, {"machines", rows}}.dump(2) << "\n";
}

// The largest batch of a sweep that fits without swapping, if any.
std::optional<std::int64_t> largest_fitting(const std::vector<SweepStep>& steps) {
  std::optional<std::int64_t> largest;
  for (const SweepStep& s : steps) {
    if (s.mps.memory == MpsMemory::Fits) largest = s.batch_size;
  }
  return largest;
}

// Samples (a GPT's: sequences of block_size tokens) trained per second at one step of the sweep.
double samples_per_second(const ModelConfig& config, const SweepStep& step) {
  return static_cast<double>(step.batch_size * config.gradient_accumulation_steps) /
         *step.mps.mps_seconds;
}

void print_sweep_json(const ModelConfig& config,
                      const std::vector<const engine::MachineProfile*>& machines,
                      std::ostream& out) {
  nlohmann::json sweeps = nlohmann::json::array();
  for (const engine::MachineProfile* machine : machines) {
    const std::vector<SweepStep> steps = sweep_batch(config, *machine);
    nlohmann::json rows = nlohmann::json::array();
    for (const SweepStep& s : steps) {
      nlohmann::json row = {
          {"batch_size", s.batch_size},
          {"mps_ms", milliseconds_json(s.mps.mps_seconds)},
          {"samples_per_second", s.mps.mps_seconds ? nlohmann::json(samples_per_second(config, s))
                                                   : nlohmann::json(nullptr)}};
      row.update(mps_memory_json(s.mps));
      rows.push_back(row);
    }
    const auto largest = largest_fitting(steps);
    sweeps.push_back({{"machine", machine->name},
                      {"steps", rows},
                      {"largest_batch_without_swap",
                       largest ? nlohmann::json(*largest) : nlohmann::json(nullptr)}});
  }
  out << nlohmann::json{{"config", config_json(config)}, {"sweeps", sweeps}}.dump(2) << "\n";
}

void print_sweep(const ModelConfig& config,
                 const std::vector<const engine::MachineProfile*>& machines, std::ostream& out,
                 std::size_t width) {
  using engine::notebook::wrap;
  print_config(config, out, width);
  out << wrap(
      "the runbook's batch sweep: batch_size doubled from 1 until the GPU swaps or runs out "
      "of memory; a steady iteration (not compiled) on mps and the Metal memory it holds. That "
      "memory grows in heaps, as PyTorch's MPS allocator takes it from Metal (a buffer of 10 MB "
      "or more goes into a 1 GiB heap), so it rises in steps and can dip where a larger batch "
      "packs its buffers into fewer heaps",
      width);
  for (const engine::MachineProfile* machine : machines) {
    out << "\n" << machine->name << "\n";
    const std::vector<SweepStep> steps = sweep_batch(config, *machine);
    if (steps.front().mps.memory == MpsMemory::Unavailable ||
        steps.front().mps.memory == MpsMemory::Unsupported) {
      out << wrap("no sweep: " + steps.front().mps.why, width, "  ", "  ");
      continue;
    }
    // The memory column beside the numbers where the terminal has room for it (27 columns:
    // "6.09 of 56.0 GiB free: fits"), else under them.
    constexpr std::size_t kNumbers = 30;  // "{:>7} {:>9} {:>10}  "
    const bool memory_beside = width >= kNumbers + 27;
    out << fmt::format("{:>7} {:>9} {:>10}{}\n", "batch", "mps ms", "samples/s",
                       memory_beside ? "  mps memory" : "");
    for (const SweepStep& s : steps) {
      const std::string rate =
          s.mps.mps_seconds ? fmt::format("{:.1f}", samples_per_second(config, s)) : "-";
      out << fmt::format("{:>7} {:>9} {:>10}", s.batch_size, ms(s.mps.mps_seconds), rate);
      if (memory_beside) {
        out << "  " << wrap(memory_text(s.mps), width - kNumbers, "", std::string(kNumbers, ' '));
      } else {
        out << "\n" << wrap("mps memory: " + memory_text(s.mps), width, "    ", "      ");
      }
    }
    const auto largest = largest_fitting(steps);
    const bool capped = steps.back().mps.memory == MpsMemory::Fits;  // never swapped
    const Prediction& last = steps.back().mps;
    const bool state_too_large = last.state_bytes > free_memory(*machine);
    out << wrap(largest           ? fmt::format("largest batch_size without swap: {}{}", *largest,
                                      capped ? " (the sweep stops there)" : "")
                : state_too_large ? "even batch_size 1 does not fit without swap: " +
                                        model_state_text(last) + ", more than the machine has free"
                                  : std::string("even batch_size 1 does not fit without swap"),
                width, "  ", "  ");
  }
}

}  // namespace

int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                 std::size_t width) {
  const auto parsed = parse_arguments(args);
  if (const auto* message = std::get_if<std::string>(&parsed)) {
    err << "course plan: " << *message << "\nusage: course " << kPlanUsage << "\n";
    return 2;
  }
  const Options& o = std::get<Options>(parsed);
  std::vector<const engine::MachineProfile*> machines;
  if (o.machine) {
    const engine::MachineProfile* m = engine::find_machine(*o.machine);
    if (m == nullptr) {
      err << engine::notebook::wrap("course plan: no machine named " + *o.machine +
                                        "; the machines: " + engine::machine_names(),
                                    width, "", "  ");
      return 2;
    }
    machines.push_back(m);
  } else {
    for (const engine::MachineProfile* m : engine::machines()) {
      if (m->name != "host")
        machines.push_back(m);  // this computer's answer belongs to --machine host
    }
  }
  ModelConfig config;
  try {
    config = read_model_config(o.config);
  } catch (const ConfigError& error) {
    // Wrapped: a refusal can list a family's every field.
    err << engine::notebook::wrap(std::string("course plan: ") + error.what(), width, "", "  ");
    return 1;
  }
  if (o.sweep_batch) {
    o.json ? print_sweep_json(config, machines, out) : print_sweep(config, machines, out, width);
  } else {
    o.json ? print_plan_json(config, machines, out) : print_plan(config, machines, out, width);
  }
  return 0;
}

}  // namespace planner
