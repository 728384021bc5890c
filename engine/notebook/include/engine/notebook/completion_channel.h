#pragma once
// A program the course runs on the learner's code (a lab's tests, a lesson) says on its
// completion channel that it finished its work, and what became of it. Output cannot prove that:
// code that calls exit(0) (or _exit, quick_exit, or returns from a static initializer) ends the
// program with status 0 after printing part of a report, and before the rest was checked. The
// channel is a pipe the course gives the program as descriptor 3, named in the variable below
// (run_collecting's Surroundings::completion_channel); the program takes it at start-up.

#include <string_view>

namespace engine::notebook {

inline constexpr int kCompletionChannelFd = 3;
inline constexpr const char* kCompletionChannelVariable = "MPS_COURSE_COMPLETION_FD";

// Takes this program's completion channel, if the course gave it one: removes the variable and
// keeps the descriptor from the programs this one starts, so that they cannot write on it.
void take_completion_channel();

// Writes `line` and a line break on the channel; nothing, without one.
void report_completion(std::string_view line);

}  // namespace engine::notebook
