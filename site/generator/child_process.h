#pragma once
// Runs programs (the lesson executables) in parallel, the way a build tool runs its jobs.

#include <string>
#include <vector>

namespace site {

struct Command {
  std::vector<std::string> argv;  // argv[0] is the program's path
  std::string output;             // stdout goes to this file
  std::string errors;             // stderr goes to this file; empty: to `output`
};

// Runs every command, at most `jobs` at a time, and returns each one's exit status (128 +
// the signal's number for a command that a signal ended). The children inherit this
// program's environment without the PYTORCH_ variables, which the lessons read as a Python
// program would: a site shows what the lessons print by default. Throws std::runtime_error
// if a command cannot be started.
std::vector<int> run_commands(const std::vector<Command>& commands, unsigned jobs);

}  // namespace site
