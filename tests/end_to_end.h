#pragma once
// End-to-end tests: run one of the course's programs as a learner would, then check its exit
// status and what it printed. Every run gets NO_COLOR=1, COLUMNS=80 and the tests' own progress
// file (never the learner's), then whatever the test adds.
//
//   const Run run = run_program({program("lesson02"), "--cell", "sanity_check", "--minimal"});
//   expect_status(run, 0);
//   expect_text(run, {"selected device: mps"});

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "engine/notebook/child_process.h"

namespace end_to_end {

// Under AddressSanitizer a crash is reported in the sanitizer's words, not the course's: tests of
// a crash are skipped there.
using engine::notebook::kUnderAddressSanitizer;

using Run = engine::notebook::Finished;
using engine::notebook::Surroundings;

// The path of a program this build made, by its target's name. The test executable is built with
// the table of the programs it names (tutor_add_end_to_end_test in tests/CMakeLists.txt).
std::string program(std::string_view target);

// A file or folder of the course's sources, by its path from the top ("setup").
std::string source(std::string_view relative);

// A folder of this test's own in the build tree, emptied; nothing else writes there.
std::string scratch(std::string_view name);

// Says "SKIPPED: <why>", which CTest reports as a skipped test; the test case then returns.
void skip(std::string_view why);

Run run_program(const std::vector<std::string>& argv, Surroundings surroundings = {});

// Each of these is a doctest check that shows the whole output when it fails.
void expect_status(const Run& run, int status);
void expect_failure(const Run& run);  // any status but 0
void expect_text(const Run& run, std::initializer_list<std::string_view> texts);
void expect_no_text(const Run& run, std::initializer_list<std::string_view> texts);

}  // namespace end_to_end
