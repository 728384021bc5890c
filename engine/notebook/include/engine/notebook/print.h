#pragma once
// print(...) as Python's print(*args): each argument as Python shows it, separated by spaces,
// then a newline. Lessons print through it (or std::cout) so that every printed line is
// captured and compared with the cell's documented output.

#include <iostream>
#include <string>
#include <utility>

#include "engine/python_format.h"

namespace engine::notebook {

template <typename... Args>
void print(const Args&... args) {
  std::string line;
  ((line += (line.empty() ? "" : " "), line += engine::py::str(args)), ...);
  line += '\n';
  std::cout << line;
}

}  // namespace engine::notebook
