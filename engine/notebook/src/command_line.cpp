// The lesson programs' command line, through cxxopts (built without its regular expressions:
// tutor::cxxopts in cmake/TutorDependencies.cmake says why).

#include "command_line.h"

#include <unistd.h>

#include <cxxopts.hpp>
#include <stdexcept>

#include "engine/machine.h"
#include "engine/notebook/terminal_text.h"

namespace engine::notebook {
namespace {

// An option's value that starts with '-' is almost always a forgotten value: `--trace
// --minimal` would otherwise write a file named "--minimal" and drop --minimal. An empty value
// would silently mean "not given": every cell, the built-in lesson, no trace.
std::string not_an_option(const std::string& option, std::string value) {
  if (value.empty()) {
    const bool cell = option == "cell", machine = option == "machine";
    throw std::invalid_argument("--" + option + " needs " +
                                (cell      ? "the name of a code cell (--list-cells lists them)"
                                 : machine ? "the name of a machine (--list-machines lists them)"
                                           : "a file name"));
  }
  if (value.size() > 1 && value.front() == '-') {
    const bool file = option == "trace" || option == "source";
    throw std::invalid_argument(
        "--" + option + " needs a value, not the option '" + value + "'" +
        (file ? " (name a file that starts with '-' as ./" + value + ")" : ""));
  }
  return value;
}

std::string value_of(const cxxopts::ParseResult& parsed, const std::string& option) {
  return not_an_option(option, parsed[option].as<std::string>());
}

}  // namespace

CommandLine parse_command_line(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "lesson";
  const std::size_t width = terminal_width(STDOUT_FILENO);
  cxxopts::Options options(
      program.substr(program.find_last_of('/') + 1),
      wrap("Runs this lesson as an executed notebook: prose, code, and what each code cell "
           "prints.",
           width));
  options.set_width(width);
  options.add_options()(
      "m,machine", "simulated computer to run on (see --list-machines)",
      cxxopts::value<std::string>()->default_value(std::string(default_machine().name)), "NAME")(
      "c,cell", "run only this code cell; repeat it for several (they run in the lesson's order)",
      cxxopts::value<std::vector<std::string>>(), "NAME")(
      "verify", "check every cell's output against its documented output (what ctest runs)")(
      "minimal", "print only what the cells print")(
      "python", "also show each code cell's Python twin: the same cell in PyTorch's Python API")(
      "compare",
      "under every code cell, also show the outputs documented for the other "
      "machines (cells whose prose discusses them show those anyway)")(
      "trace",
      "write the host and device timelines to FILE as a Chrome trace (open it in "
      "Perfetto: ui.perfetto.dev); with --cell, of those cells only. Long loops are summarised "
      "after each cell's first 10,000 spans",
      cxxopts::value<std::string>(),
      "FILE")("full-trace",
              "with --trace, keep every span of long loops (lesson 5's trace grows from 2 MB "
              "to 60 MB)")(
      "outputs", "write what each cell printed to FILE as JSON, instead of showing the notebook",
      cxxopts::value<std::string>(),
      "FILE")("color", "colour the notebook: auto (a terminal without NO_COLOR), always, never",
              cxxopts::value<std::string>()->default_value("auto"),
              "WHEN")("glossary", "show the glossary of the course's terms")(
      "list-machines", "list the simulated computers")("list-cells",
                                                       "list the code cells that run")(
      "list-tests", "list cell and machine pairs for CTest, one per line")(
      "source", "read the lesson from FILE, an edited copy with the same line numbers",
      cxxopts::value<std::string>(), "FILE")("h,help", "show this help");

  CommandLine result;
  try {
    const cxxopts::ParseResult parsed = options.parse(argc, argv);
    if (!parsed.unmatched().empty()) {
      throw std::invalid_argument("unexpected argument '" + parsed.unmatched().front() + "'");
    }
    result.machine = value_of(parsed, "machine");
    if (parsed.count("cell") > 0) {
      for (const std::string& cell : parsed["cell"].as<std::vector<std::string>>()) {
        result.cells.push_back(not_an_option("cell", cell));
      }
    }
    if (parsed.count("source") > 0) result.source = value_of(parsed, "source");
    if (parsed.count("trace") > 0) result.trace = value_of(parsed, "trace");
    result.full_trace = parsed.count("full-trace") > 0;
    if (result.full_trace && result.trace.empty()) {
      throw std::invalid_argument("--full-trace goes with --trace FILE");
    }
    if (parsed.count("outputs") > 0) result.outputs = value_of(parsed, "outputs");
    result.verify = parsed.count("verify") > 0;
    result.minimal = parsed.count("minimal") > 0;
    result.python = parsed.count("python") > 0;
    result.compare = parsed.count("compare") > 0;
    result.glossary = parsed.count("glossary") > 0;
    result.list_machines = parsed.count("list-machines") > 0;
    result.list_cells = parsed.count("list-cells") > 0;
    result.list_tests = parsed.count("list-tests") > 0;
    result.help = parsed.count("help") > 0;
    const std::string color = value_of(parsed, "color");
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
  result.help_text =
      options.help() + "\n" +
      wrap(
          "Exit status: 0 every cell printed its documented output; 1 a cell did not, or raised; "
          "2 a bad option, machine or cell, a malformed lesson, or a trace file that cannot be "
          "written (nothing ran); 4 the lesson ran, but its trace or the course progress could "
          "not be written.",
          width);
  return result;
}

}  // namespace engine::notebook
