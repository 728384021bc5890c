#pragma once
// The learner's file of a lab (labs/NN_topic/lab.cpp): the TODOs still in it, and putting it
// back to the starter without losing what the learner wrote.

#include <filesystem>
#include <string>
#include <vector>

#include "harness/lab_source.h"

namespace front_door {

using harness::TodoLine;

// The TODO("id", "what") lines of `file`, in order; empty when there are none, or no file that can
// be read (a FIFO, a device).
std::vector<TodoLine> open_todos(const std::filesystem::path& file);

// Whether `learner_file` is a file that holds, byte for byte, what `starter` holds.
bool is_starter(const std::filesystem::path& learner_file, const std::filesystem::path& starter);

// Why a lab file cannot be read, from what harness::read_lab_file threw ("path: cannot be read:
// why"): "it is a FIFO (named pipe), not a regular file".
std::string why_unreadable(const harness::DecoyError& error);

// Moves `learner_file` aside as lab.kept-<date>-<time>.cpp beside it, then copies `starter` in
// its place. Returns where the learner's file went: empty if there was none, or if it was the
// starter still (then it stays, and nothing is kept). Throws std::filesystem::filesystem_error
// if a step fails; the learner's file is never deleted.
std::filesystem::path reset_to_starter(const std::filesystem::path& learner_file,
                                       const std::filesystem::path& starter);

}  // namespace front_door
