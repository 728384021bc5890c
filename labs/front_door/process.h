#pragma once
// Running the course's other programs: the build, a lab's tests, a lesson, the quiz.

#include <string>
#include <vector>

namespace front_door {

struct Finished {
  int status = 0;      // the exit status; 128 + the signal's number if a signal ended it
  std::string output;  // stdout and stderr as they came, interleaved
};

// Runs `argv` and collects what it prints. A program that cannot be started finishes with
// status 127 and says why in `output`.
Finished run_collecting(const std::vector<std::string>& argv);

// Runs `argv` on this terminal: it reads our stdin and prints to our stdout and stderr.
int run_attached(const std::vector<std::string>& argv);

}  // namespace front_door
