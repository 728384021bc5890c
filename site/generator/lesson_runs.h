#pragma once
// The real outputs the site shows: every cell of every lesson run on every named machine by
// the lesson's own executable, one cell per run (`lessonNN --cell NAME --machine M --outputs
// FILE --trace FILE`), with the cell's simulated timelines kept when it ran GPU work.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "course.h"
#include "launch_svg.h"
#include "trace_reader.h"

namespace site {

struct CellCapture {
  std::string output;                     // stdout and stderr interleaved, as a terminal shows them
  std::vector<bool> from_stderr{};        // one per line of `output`
  bool passed = true;                     // every check held and the output is the documented one
  bool matches = true;                    // the output is the documented one
  std::vector<std::string> problems{};    // failed checks and exceptions
  std::vector<TracedProcess> timeline{};  // the cell's processes, if it ran work on the device
  std::vector<LaunchShape> launches{};    // its compile_shader kernel launches, each distinct once
};

// machine -> cell -> what it printed
using LessonCaptures = std::map<std::string, std::map<std::string, CellCapture>>;

struct RunStatistics {
  std::size_t runs = 0;
  std::vector<std::string>
      failed_cells;  // "lesson 07 cell last_bits on m1-8gb": checks or output failed
};

// Runs every lesson's cells on every machine, `jobs` programs at a time, with scratch files in
// `work`. Returns one LessonCaptures per lesson, in order. Throws std::runtime_error, with the
// program's own message, if a program cannot run a cell or writes no outputs.
std::vector<LessonCaptures> run_lessons(const std::vector<Lesson>& lessons,
                                        const std::vector<std::string>& machines,
                                        const std::filesystem::path& work, unsigned jobs,
                                        RunStatistics& statistics);

// Reads one --outputs file into captures by cell name (the timelines stay empty).
std::map<std::string, CellCapture> read_cell_outputs(const std::string& path);

}  // namespace site
