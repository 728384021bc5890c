#pragma once
// Internal: how main asks the doctest runner to run a lesson's cells.

#include <iosfwd>
#include <string>
#include <vector>

#include "engine/notebook/lesson_source.h"

namespace engine::notebook {

struct RunConfig {
  bool verify = false;  // doctest's console report (CTest) instead of the notebook view
  bool color = false;
  std::size_t width = 80;           // columns of the terminal (terminal_text.h)
  bool minimal = false;             // only what the cells print
  bool python = false;              // each code cell's Python twin under its code
  bool compare = false;             // under every cell, the outputs documented for other machines
  std::vector<const Cell*> only{};  // run these cells only (empty: every cell)
  std::string program;              // for hints such as "lesson02 --cell x"
  std::ostream* out = nullptr;      // the real stdout, never captured
  bool outputs = false;  // collect each cell's output for --outputs instead of showing it
};

// The configuration of the current run, read by the notebook view.
const RunConfig& run_config();

// Runs the selected cells of the active session through doctest; returns the exit status.
int run_cells(const RunConfig& config);

}  // namespace engine::notebook
