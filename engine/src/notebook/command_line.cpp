// The only translation unit that includes cxxopts (without its regex support, which costs
// seconds of compile time and is not needed here).

#define CXXOPTS_NO_REGEX 1
#include <cxxopts.hpp>

#include <stdexcept>

#include "command_line.h"
#include "engine/machine.h"

namespace engine::notebook {

CommandLine parse_command_line(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "lesson";
  cxxopts::Options options(program.substr(program.find_last_of('/') + 1),
                           "Runs this lesson as an executed notebook: prose, code, and what each "
                           "code cell prints.\n");
  options.add_options()
      ("m,machine", "simulated computer to run on (see --list-machines)",
       cxxopts::value<std::string>()->default_value(std::string(default_machine().name)), "NAME")
      ("c,cell", "run only this code cell", cxxopts::value<std::string>(), "NAME")
      ("verify", "check every cell's output against its documented output (what ctest runs)")
      ("minimal", "print only what the cells print")
      ("trace", "write the host and device timelines to FILE as a Chrome trace (open it in "
       "Perfetto: ui.perfetto.dev)", cxxopts::value<std::string>(), "FILE")
      ("outputs", "write what each cell printed to FILE as JSON, instead of showing the notebook",
       cxxopts::value<std::string>(), "FILE")
      ("color", "colour the notebook: auto (a terminal without NO_COLOR), always, never",
       cxxopts::value<std::string>()->default_value("auto"), "WHEN")
      ("list-machines", "list the simulated computers")
      ("list-cells", "list the code cells that run")
      ("list-tests", "list cell and machine pairs for CTest, one per line")
      ("source", "read the lesson from FILE, an edited copy with the same line numbers",
       cxxopts::value<std::string>(), "FILE")
      ("h,help", "show this help");

  CommandLine result;
  try {
    const cxxopts::ParseResult parsed = options.parse(argc, argv);
    if (!parsed.unmatched().empty()) {
      throw std::invalid_argument("unexpected argument '" + parsed.unmatched().front() + "'");
    }
    result.machine = parsed["machine"].as<std::string>();
    if (parsed.count("cell") > 0) result.cell = parsed["cell"].as<std::string>();
    if (parsed.count("source") > 0) result.source = parsed["source"].as<std::string>();
    if (parsed.count("trace") > 0) result.trace = parsed["trace"].as<std::string>();
    if (parsed.count("outputs") > 0) result.outputs = parsed["outputs"].as<std::string>();
    result.verify = parsed.count("verify") > 0;
    result.minimal = parsed.count("minimal") > 0;
    result.list_machines = parsed.count("list-machines") > 0;
    result.list_cells = parsed.count("list-cells") > 0;
    result.list_tests = parsed.count("list-tests") > 0;
    result.help = parsed.count("help") > 0;
    const std::string color = parsed["color"].as<std::string>();
    if (color == "always") {
      result.color = ColorMode::Always;
    } else if (color == "never") {
      result.color = ColorMode::Never;
    } else if (color != "auto") {
      throw std::invalid_argument("--color takes auto, always or never, not '" + color + "'");
    }
  } catch (const cxxopts::exceptions::exception& e) {
    throw std::invalid_argument(e.what());
  }
  result.help_text = options.help();
  return result;
}

}  // namespace engine::notebook
