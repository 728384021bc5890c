#pragma once
// The learner's files of a lab (labs/NN_topic/lab.cpp, or lab 9's .metal kernels): the TODOs
// still in them, the digest of what is on disk, and putting one back to the starter without
// losing what the learner wrote.

#include <filesystem>
#include <string>
#include <vector>

#include "catalog.h"
#include "harness/lab_source.h"

namespace front_door {

using harness::TodoLine;

// The TODO("id", "what") lines of `file`, in order; empty when there are none, or no file that can
// be read (a FIFO, a device).
std::vector<TodoLine> open_todos(const std::filesystem::path& file);

// The TODO lines still open in the learner's files of `lab`, file by file in order.
struct LabTodo {
  std::filesystem::path file;
  TodoLine todo;
};
std::vector<LabTodo> open_todos(const LabInfo& lab);

// The digest of the learner's files of `lab` as they are on disk now, as the lab's program
// reports what it was built from or read (harness/learner_source.h). Throws harness::DecoyError
// for a file that cannot be read (a FIFO, a device, a missing file).
std::string digest_on_disk(const LabInfo& lab);

// Whether `learner_file` is a file that holds, byte for byte, what `starter` holds.
bool is_starter(const std::filesystem::path& learner_file, const std::filesystem::path& starter);

// Why a lab file cannot be read, from what harness::read_lab_file threw ("path: cannot be read:
// why"): "it is a FIFO (named pipe), not a regular file".
std::string why_unreadable(const harness::DecoyError& error);

// Moves `learner_file` aside as lab.kept-<date>-<time>.cpp beside it (01_map.metal as
// 01_map.kept-<date>-<time>.metal), then copies `starter` in
// its place. Returns where the learner's file went: empty if there was none, or if it was the
// starter still (then it stays, and nothing is kept). Throws std::filesystem::filesystem_error
// if a step fails; the learner's file is never deleted.
std::filesystem::path reset_to_starter(const std::filesystem::path& learner_file,
                                       const std::filesystem::path& starter);

}  // namespace front_door
