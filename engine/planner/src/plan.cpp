#include "planner/plan.h"

#include <optional>
#include <variant>

#include "engine/notebook/machine_choice.h"
#include "engine/notebook/terminal_text.h"
#include "plan_output.h"
#include "planner/model_config.h"
#include "planner/torch_model.h"

namespace planner {
namespace {

struct Options {
  std::string config;
  std::optional<std::string> torch;  // --torch FILE.py
  std::optional<std::string> machine;
  std::string sweep;  // "batch" or "workers"; empty: the plan
  bool json = false;
  bool list_machines = false;
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
      if (i + 1 == args.size() || (args[i + 1] != "batch" && args[i + 1] != "workers"))
        return std::string(
            "--sweep sweeps the batch or the DataLoader's workers: --sweep batch, --sweep workers");
      o.sweep = args[++i];
    } else if (args[i] == "--torch") {
      if (i + 1 == args.size() || args[i + 1].starts_with("--"))
        return std::string("--torch needs the Python file of a PyTorch model: --torch FILE.py");
      o.torch = args[++i];
    } else if (args[i] == "--json") {
      o.json = true;
    } else if (args[i] == "--list-machines") {
      o.list_machines = true;
    } else if (args[i].starts_with("--")) {
      return "unknown option " + args[i];
    } else if (o.config.empty()) {
      o.config = args[i];
    } else {
      return "one config file at a time, not also " + args[i];
    }
  }
  if (o.list_machines) return o;
  if (o.torch && !o.config.empty())
    return "one model at a time: a config file or --torch FILE.py, not both";
  if (o.config.empty() && !o.torch)
    return std::string(
        "which model? Give its config file (TOML, nanoGPT's config/*.py or a Hugging Face "
        "config.json), or its PyTorch code: --torch FILE.py");
  return o;
}

// The machine --machine names, or every simulated machine but this computer, whose answer
// belongs to --machine host; none (with the message on `err`) for a name no machine has.
std::optional<Machines> chosen_machines(const Options& o, std::ostream& err, std::size_t width) {
  Machines machines;
  if (o.machine) {
    const engine::MachineProfile* m = engine::find_machine(*o.machine);
    if (m == nullptr) {
      err << engine::notebook::wrap("course plan: " + engine::notebook::unknown_machine(*o.machine),
                                    width, "", "  ");
      return std::nullopt;
    }
    machines.push_back(m);
    return machines;
  }
  for (const engine::MachineProfile* m : engine::machines()) {
    if (m->name != "host") machines.push_back(m);
  }
  return machines;
}

}  // namespace

int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                 std::size_t width, const Tracer& tracer) {
  const auto parsed = parse_arguments(args);
  if (const auto* message = std::get_if<std::string>(&parsed)) {
    err << "course plan: " << *message << "\nusage: course " << kPlanUsage << "\n";
    return 2;
  }
  const Options& o = std::get<Options>(parsed);
  if (o.list_machines) {
    engine::notebook::list_machines(out, width);
    return 0;
  }
  const std::optional<Machines> machines = chosen_machines(o, err, width);
  if (!machines) return 2;
  try {
    const ModelConfig config =
        o.torch ? traced_model_config(*o.torch, tracer) : read_model_config(o.config);
    if (o.sweep == "workers" && !config.input.reads_samples()) {
      err << engine::notebook::wrap(
          "course plan: --sweep workers sweeps a DataLoader's workers, and " + config.name +
              "'s batches are made in memory: give it an input pipeline (samples = \"jpeg\" or "
              "\"images\")",
          width, "", "  ");
      return 2;
    }
    if (o.sweep == "batch") {
      o.json ? print_sweep_json(config, *machines, out)
             : print_sweep(config, *machines, out, width);
    } else if (o.sweep == "workers") {
      o.json ? print_workers_sweep_json(config, *machines, out)
             : print_workers_sweep(config, *machines, out, width);
    } else {
      o.json ? print_plan_json(config, *machines, out) : print_plan(config, *machines, out, width);
    }
  } catch (const ConfigError& error) {  // a trace made for the sweep can be refused too
    // Wrapped: a refusal can list a family's every field.
    err << engine::notebook::wrap(std::string("course plan: ") + error.what(), width, "", "  ");
    return 1;
  } catch (const NotTraced&) {
    return 1;
  }
  return 0;
}

}  // namespace planner
