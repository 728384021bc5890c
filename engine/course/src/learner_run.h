#pragma once
// Running a program on the learner's code (a lab's tests, a lesson) as `course verify` and
// `course watch` do, and reading how it ended. It runs within a time and a memory limit and
// with a completion channel (engine/notebook/completion_channel.h), on which it says what it
// was built from, which check it starts, and, last, that it finished. Output alone cannot tell
// a program that finished from one whose code ended it early with exit(0).

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/notebook/child_process.h"

namespace front_door {

class Course;

// A lab or a lesson takes well under 1 GiB (DESIGN.md's budget); this leaves room, and stops
// code that allocates without end before the computer's memory runs out.
inline constexpr std::uint64_t kLearnerMemoryLimit = std::uint64_t{2} << 30;

// The last resort for code that hangs before its program's own time limit starts (a check's
// or a cell's, engine/notebook/stopped_code.h): six times as long.
std::chrono::seconds learner_program_limit();

struct LearnerRun {
  engine::notebook::Finished finished{};
  std::string built_from{};  // the digest of the source it was built from, if it said one
  std::string running{};     // what it started last: "the check 'NAME'", "the cell 'NAME'"
  std::string last_word{};   // what it said last when it finished ("done checks=3 failed=0",
                             // then "recorded" for a lesson it recorded); empty: it ended before
};

LearnerRun run_learner_program(const std::vector<std::string>& command);

// Says why the program `what` ("Your lab", "Lesson 05"), made of `unit`s ("check", "cell"),
// ended before it finished: stopped at the time limit, crashed, killed (most often for memory),
// or ended by the learner's code. Returns false for a program that finished (its own report says
// the rest).
bool explain_unfinished(Course& course, const LearnerRun& run, const std::string& what,
                        const std::string& unit);

}  // namespace front_door
