#pragma once
// Internal: the options of a lesson executable.

#include <string>
#include <vector>

namespace engine::notebook {

enum class ColorMode { Auto, Always, Never };

// Exit statuses of a lesson program, besides 0 (every cell as documented) and 1 (a cell did
// not print its documented output or raised); --help lists them.
constexpr int kUsageError =
    2;  // a bad option or machine or cell, a malformed lesson, an unwritable trace: nothing ran
constexpr int kNotWritten =
    4;  // the lesson ran, but its trace or its progress could not be written

struct CommandLine {
  std::string machine;
  std::vector<std::string> cells;  // run only these, in the lesson's order
  std::string source;              // read the lesson from here instead of where it was built from
  std::string trace;               // write a Chrome trace of the simulated timelines here
  bool full_trace = false;         // every span, not long loops summarised
  std::string outputs;             // write what each cell printed here, as JSON
  bool verify = false;
  bool minimal = false;
  bool python = false;    // show each code cell's Python twin under it
  bool compare = false;   // show other machines' documented outputs under every cell
  bool glossary = false;  // print the course's glossary and stop
  bool list_machines = false;
  bool list_cells = false;
  bool list_tests = false;
  bool help = false;
  ColorMode color = ColorMode::Auto;
  std::string help_text;
};

// Throws std::invalid_argument with a one-line explanation for bad options.
CommandLine parse_command_line(int argc, const char* const* argv);

}  // namespace engine::notebook
