#pragma once
// Verifying what the learner is working on: build it, run its checks, show the verdict, and
// record it in the progress file. `course verify` and `course watch` both do this.

#include <filesystem>
#include <string>
#include <string_view>

#include "catalog.h"

namespace front_door {

class Course;

// Builds `target`; if that fails, shows the compiler's messages about `file` and says so.
bool build_or_explain(Course& course, const std::string& target, const std::filesystem::path& file);

// NotRecorded: it passed, but the progress file could not be written.
enum class Verdict { Passed, NotRecorded, Failed, DoesNotCompile, Missing };

// Whether the time limit the environment sets (MPS_COURSE_TIME_LIMIT) can be used; if not, says
// why as `subcommand`'s error, before anything is built or run.
bool time_limit_usable(Course& course, std::string_view subcommand);

// Builds and tests the learner's lab.cpp, or, for authors, one of the lab's other versions
// (`variant`: "solution", "starter" or a decoy's name), which records nothing. A verdict on the
// learner's file is for the bytes on disk when its program has run (harness/learner_source.h);
// it is recorded, pass or fail, as the lab's last check, and a first pass as its pass.
struct LabRun {
  std::string variant;   // "" (the learner's file), "solution", "starter" or a decoy's name
  bool details = false;  // also show the expression each failed check tested
};
Verdict verify_lab(Course& course, const LabInfo& lab, const LabRun& how = {});

// Builds lesson NN and runs its checks; when every cell prints its documented output, runs it
// once more as a notebook, which records the lesson as verified and says so: only then is the
// verdict Passed.
Verdict verify_lesson(Course& course, const LessonInfo& lesson);

}  // namespace front_door
