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
// failed checks and exceptions the notebook view would show under the cell. A cell that called
// compile_shader kernels has "launches" too, each distinct launch once, in the order first made
// (sim::KernelLaunchRecording): {"kernel": "scale", "grid": [1024, 1, 1], "group": [256, 1, 1],
// "threadgroups": 4, "calls": 1, "idle": [[1000, 1024]]}, where "idle" lists the ranges of the
// grid's threads (x fastest) that touched no device memory, which the site draws as the tail.

#include <string>

namespace engine::notebook {

// doctest's name for the reporter that collects the outputs.
inline constexpr const char* kCellOutputsReporter = "outputs";

// Writes what the reporter collected; throws engine::Error if the file cannot be written.
void write_cell_outputs(const std::string& path);

}  // namespace engine::notebook
