#pragma once
// Internal: waiting for a program that run_collecting started (child_process.cpp) in a process
// group of its own, and collecting what it says. The wait ends when the program ends, not when
// its output closes: a process it started and left behind may hold the output open for as long
// as it likes, and is ended with the rest of the group. What is kept of the output is bounded.

#include <sys/types.h>

#include <chrono>
#include <optional>

#include "engine/notebook/child_process.h"

namespace engine::notebook {

// The read ends of the pipes the program writes: its output (stdout and stderr) and, when it
// was given one, its completion channel (-1: none). collect() closes them.
struct CollectedPipes {
  int output = -1;
  int completion = -1;
};

// The status run_collecting reports for what waitpid() said: the exit status, or 128 + the
// signal's number.
int exit_status(int wait_status);

// Waits for the child `pid` to end and reaps it; its status as exit_status() reports it.
int wait_for(pid_t pid);

// Collects what the program `pid`, the leader of its own process group, writes until it ends or
// `limit` passes; then ends every process left in the group (the whole group at the limit) and
// reaps the program. A SIGINT, SIGTERM or SIGHUP that reaches this process meanwhile ends the
// group too, and is then delivered here as it would have been.
Finished collect(pid_t pid, CollectedPipes pipes, std::optional<std::chrono::seconds> limit);

}  // namespace engine::notebook
