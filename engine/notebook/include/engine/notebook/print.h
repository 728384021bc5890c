#pragma once
// print(...) as Python's print(*args): each argument as Python shows it, separated by spaces,
// then a newline. Lessons print through it (or std::cout) so that every printed line is
// captured and compared with the cell's documented output.

#include <string>
#include <string_view>

#include "engine/python_format.h"

namespace engine::notebook {

// Writes one finished line to std::cout, where a running cell's capture reads it. Defined out of
// line so that no lesson compiles <iostream> for it: every lesson includes this header.
void write_printed_line(std::string_view line);

template <typename... Args>
void print(const Args&... args) {
  std::string line;
  ((line += (line.empty() ? "" : " "), line += engine::py::str(args)), ...);
  line += '\n';
  write_printed_line(line);
}

}  // namespace engine::notebook
