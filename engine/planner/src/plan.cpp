#include "planner/plan.h"

#include <fmt/format.h>

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
};

// The arguments, or a message saying what is wrong with them.
std::variant<Options, std::string> parse_arguments(const std::vector<std::string>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--machine") {
      if (i + 1 == args.size() || args[i + 1].starts_with("--"))
        return std::string("--machine needs a machine's name");
      o.machine = args[++i];
    } else if (args[i].starts_with("--")) {
      return "unknown option " + args[i];
    } else if (o.config.empty()) {
      o.config = args[i];
    } else {
      return "one config file at a time, not also " + args[i];
    }
  }
  if (o.config.empty())
    return std::string("which model? Give its config file: TOML, or nanoGPT's config/*.py");
  return o;
}

std::string describe(const ModelConfig& c) {
  return fmt::format(
      "{}: {} layers, {} heads, {} wide, context {}, batch {} x {} micro-step{}, dropout {}, {}, {}, "
      "compile {}; {:.2f}M parameters",
      c.name, c.n_layer, c.n_head, c.n_embd, c.block_size, c.batch_size,
      c.gradient_accumulation_steps, c.gradient_accumulation_steps == 1 ? "" : "s", c.dropout,
      c.bias ? "biases" : "no biases", c.optimizer, c.compile ? "on" : "off",
      static_cast<double>(parameter_count(c)) / 1e6);
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
      return fmt::format("out of memory (limit {:.1f} GiB)", allocator_limit(*p.machine) / gib);
    case MpsMemory::BufferTooLarge:
      return "a tensor too large for Metal";
    case MpsMemory::Swaps:
    case MpsMemory::Fits:
      break;
  }
  return fmt::format("{:.2f} of {:.1f} GiB free: {}", static_cast<double>(p.mps_bytes) / gib,
                     static_cast<double>(free_memory(*p.machine)) / gib,
                     p.memory == MpsMemory::Fits ? "fits" : "swaps");
}

void print_plan(const ModelConfig& config,
                const std::vector<const engine::MachineProfile*>& machines, std::ostream& out,
                std::size_t width) {
  using engine::notebook::wrap;
  out << wrap(describe(config), width);
  const std::vector<std::string> defaults = defaulted_fields(config);
  if (!defaults.empty()) {
    std::string list;
    for (const std::string& d : defaults) list += (list.empty() ? "" : ", ") + d;
    out << wrap("not in the file, so train.py's defaults: " + list, width, "  ", "  ");
  }
  out << wrap(
             "a steady training iteration of nanoGPT's train.py, in milliseconds, as the course's cost model "
             "predicts it",
             width)
      << "\n";
  // The memory column where the terminal has room for it, else under each row.
  const std::string columns =
      fmt::format("{:<20} {:>8} {:>8} {:>9} {:>8}", "machine", "cpu", "mps", "compiled", "cpu/mps");
  const bool memory_beside = width >= columns.size() + 2 + 32;
  out << columns << (memory_beside ? "  mps memory" : "") << "\n";
  for (const engine::MachineProfile* machine : machines) {
    const Prediction p = predict(config, *machine);
    const std::string speedup =
        p.mps_seconds ? fmt::format("{:.2f}x", p.cpu_seconds / *p.mps_seconds) : "-";
    out << fmt::format("{:<20} {:>8} {:>8} {:>9} {:>8}", machine->name, ms(p.cpu_seconds),
                       ms(p.mps_seconds), ms(p.compiled_seconds), speedup);
    out << (memory_beside ? "  " + memory_text(p) + "\n"
                          : "\n" + wrap("mps memory: " + memory_text(p), width, "     ", "     "));
    const Recommendation r = recommend(p);
    out << wrap("-> " + r.lane + ": " + r.reasons.front(), width, "  ", "     ");
    for (std::size_t i = 1; i < r.reasons.size(); ++i)
      out << wrap(r.reasons[i], width, "     ", "     ");
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
      err << "course plan: no machine named " << *o.machine
          << "; the machines: " << engine::machine_names() << "\n";
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
    err << "course plan: " << error.what() << "\n";
    return 1;
  }
  print_plan(config, machines, out, width);
  return 0;
}

}  // namespace planner
