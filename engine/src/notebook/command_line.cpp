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
    // An empty value would silently mean "not given": every cell, the built-in lesson, no trace.
    const auto named = [&](const char* option, const char* what) {
      if (parsed.count(option) == 0) return std::string();
      std::string value = parsed[option].as<std::string>();
      if (value.empty()) throw std::invalid_argument(std::string("--") + option + " needs " + what);
      return value;
    };
    result.machine = parsed["machine"].as<std::string>();
    result.cell = named("cell", "the name of a code cell (--list-cells lists them)");
    result.source = named("source", "a file name");
    result.trace = named("trace", "a file name");
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
  result.help_text = options.help() +
                     "\nExit status: 0 every cell printed its documented output; 1 a cell did not, or raised;\n"
                     "2 a bad option, machine or cell, a malformed lesson, or a trace file that cannot be\n"
                     "written (nothing ran); 4 the lesson ran, but its trace or the course progress could\n"
                     "not be written.\n";
  return result;
}

}  // namespace engine::notebook
