#pragma once
// Verifying what the learner is working on: build it, run its checks, show the verdict, and
// record a first pass in the progress file. `course verify` and `course watch` both do this.

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

#include "catalog.h"
#include "engine/notebook/child_process.h"

namespace front_door {

class Course;

// Builds `target`; if that fails, shows the compiler's messages about `file` and says so.
bool build_or_explain(Course& course, const std::string& target, const std::filesystem::path& file);

enum class Verdict { Passed, Failed, DoesNotCompile, Missing };

// The limit for a program that runs the learner's code: its own time limit
// (engine/notebook/stopped_code.h) stops a check or a cell first; this one, six times as long,
// is the last resort for code that hangs before any check starts.
std::chrono::seconds learner_program_limit();

// Whether the time limit the environment sets (MPS_COURSE_TIME_LIMIT) can be used; if not, says
// why as `subcommand`'s error, before anything is built or run.
bool time_limit_usable(Course& course, std::string_view subcommand);

// Says why a program `what` ("Your lab", "Lesson 05") stopped, when a crash or a time limit
// stopped it; false for a program that exited by itself.
bool explain_stop(Course& course, const engine::notebook::Finished& run, const std::string& what);

// Builds and tests the learner's lab.cpp, or, for authors, one of the lab's other versions
// (`variant`: "solution", "starter" or a decoy's name), which records nothing.
struct LabRun {
  std::string variant;   // "" (the learner's file), "solution", "starter" or a decoy's name
  bool details = false;  // also show the expression each failed check tested
};
Verdict verify_lab(Course& course, const LabInfo& lab, const LabRun& how = {});

// Builds lesson NN and runs its checks; when every cell prints its documented output, runs it
// once more as a notebook, which records the lesson as verified.
Verdict verify_lesson(Course& course, const LessonInfo& lesson);

}  // namespace front_door
