#pragma once
// Internal: `--outputs FILE`, what every cell that ran printed, as JSON, for the programs that
// show a lesson somewhere other than a terminal (the course site, the notebook export):
//
//   {"lesson": "05_1_timing_gpu_work", "machine": "m1-8gb", "pytorch": "2.9",
//    "cells": [{"name": "warm_up", "output": "...\n", "from_stderr": [false, ...],
//               "documented": true, "matches": true, "passed": true, "problems": []}]}
//
// `from_stderr` marks each line of `output` that came from stderr (warnings); `matches` says
// whether the output equals the cell's documented output on that machine; `problems` are the
// failed checks and exceptions the notebook view would show under the cell.

#include <string>

namespace engine::notebook {

// doctest's name for the reporter that collects the outputs.
inline constexpr const char* kCellOutputsReporter = "outputs";

// Writes what the reporter collected; throws engine::Error if the file cannot be written.
void write_cell_outputs(const std::string& path);

}  // namespace engine::notebook
