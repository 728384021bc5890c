#pragma once
// The learner's own Python with PyTorch, for what the course runs with it: `course twins` the
// lessons' Python twins, `course plan --torch` the tracer of a PyTorch model. The Python that
// MPS_COURSE_PYTHON names, alone (the learner chose it); else the first that imports torch of
// python3 on PATH and the system's (/usr/bin/python3; on macOS also Homebrew's and python.org's).

#include <chrono>
#include <string>
#include <vector>

#include "course.h"
#include "engine/notebook/child_process.h"

namespace front_door {

// What the course's Python scripts exit with when they cannot import torch.
inline constexpr int kNoTorch = 77;

// A Python that may have PyTorch, and why the course tries it.
struct Interpreter {
  std::string path;  // as run: "/usr/bin/python3", or "python3" where PATH has none
  std::string why;   // "MPS_COURSE_PYTHON", "python3 on PATH", "the system's"
};

// A Python that could not run the script, and what it said.
struct Refusal {
  Interpreter python;
  std::string said;
};

// A script run with the first of the learner's Pythons that has PyTorch.
struct PythonRun {
  std::string python;                   // the Python that ran it; empty where none could
  engine::notebook::Finished finished;  // its run
  std::vector<Interpreter> tried;
  std::vector<Refusal> refusals;  // the Pythons passed over, and why
  bool without_torch = false;     // one of them ran but could not import torch
};

// Runs `script` with `arguments` (a script that exits kNoTorch when torch will not import).
PythonRun run_with_torch(const std::string& script, const std::vector<std::string>& arguments,
                         std::chrono::seconds limit);

// "/usr/bin/python3 (the system's): /usr/bin/python3 (Python 3.11.2) cannot import torch: ..."
std::string refusal_line(const Refusal& refusal);

// On err(), where `run` found no Python with PyTorch: every Python tried and what each said, how
// to install PyTorch, and `again`, the command to run with the Python that has it. `what` says
// what the Python was for: "to run the twins".
void explain_no_torch(Course& course, const PythonRun& run, const std::string& subcommand,
                      const std::string& what, const std::string& again);

}  // namespace front_door
