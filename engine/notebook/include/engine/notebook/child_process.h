#pragma once
// Running the course's other programs: the build, a lab's tests, a lesson, the quiz (the
// course command); every lesson on every machine, several at a time (the site). posix_spawn,
// on Linux and macOS alike.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace engine::notebook {

struct Finished {
  int status = 0;        // the exit status; 128 + the signal's number if a signal ended it
  std::string output;    // stdout and stderr as they came, interleaved
  bool stopped = false;  // still running at the time limit, and killed
};

// Where a collected program runs, when it is not simply here, in this program's environment.
struct Surroundings {
  std::vector<std::string> environment;  // NAME=value entries that add to or replace ours
  std::string directory;                 // its working directory; empty: ours
  std::string input;                     // a file it reads as stdin; empty: our stdin
};

// Runs `argv` and collects what it prints. A program that cannot be started finishes with
// status 127 and says why in `output`. One still running after `limit` is killed.
Finished run_collecting(const std::vector<std::string>& argv,
                        std::optional<std::chrono::seconds> limit = std::nullopt,
                        const Surroundings& surroundings = {});

// Runs `argv` on this terminal: it reads our stdin and prints to our stdout and stderr.
int run_attached(const std::vector<std::string>& argv);

// A status of 128 + n: "Segmentation fault, signal 11"; empty for a program that exited.
std::string signal_ended(int status);

struct Command {
  std::vector<std::string> argv;  // argv[0] is the program's path
  std::string output;             // stdout goes to this file
  std::string errors;             // stderr goes to this file; empty: to `output`
};

// Runs every command, at most `jobs` at a time, the way a build tool runs its jobs, and returns
// each one's exit status. The children inherit this program's environment without the PYTORCH_
// variables, which the lessons read as a Python program would: what runs shows what the
// lessons print by default. Throws std::runtime_error if a command cannot be started.
std::vector<int> run_in_parallel(const std::vector<Command>& commands, unsigned jobs);

}  // namespace engine::notebook
