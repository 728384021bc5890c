#pragma once
// Running the course's other programs: the build, a lab's tests, a lesson, the quiz.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace front_door {

struct Finished {
  int status = 0;         // the exit status; 128 + the signal's number if a signal ended it
  std::string output;     // stdout and stderr as they came, interleaved
  bool stopped = false;   // still running at the time limit, and killed
};

// Runs `argv` and collects what it prints. A program that cannot be started finishes with
// status 127 and says why in `output`. One still running after `limit` is killed.
Finished run_collecting(const std::vector<std::string>& argv,
                        std::optional<std::chrono::seconds> limit = std::nullopt);

// The limit for a program that runs the learner's code: its own time limit
// (engine/notebook/stopped_code.h) stops a check or a cell first; this one, six times as long,
// is the last resort for code that hangs before any check starts.
std::chrono::seconds learner_program_limit();

// A status of 128 + n: "Segmentation fault, signal 11"; empty for a program that exited.
std::string signal_ended(int status);

// Runs `argv` on this terminal: it reads our stdin and prints to our stdout and stderr.
int run_attached(const std::vector<std::string>& argv);

}  // namespace front_door
