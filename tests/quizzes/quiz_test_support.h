#pragma once
// What the quiz tests share: the course's banks, a scratch progress file per test (removed when
// the program ends), and the quiz program's commands run in-process.

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "commands.h"
#include "engine/notebook/course_catalog.h"
#include "scratch_directory.h"

namespace quiz_test {

inline const quiz::Paths kPaths{TUTOR_SOURCE_DIR "/quizzes/banks", TUTOR_SOURCE_DIR "/lessons",
                                "/nonexistent/build/lessons"};
// The answer sheet that scores 15 of 15 on the mastery check with seed 0 (quiz key mastery).
inline const std::string kMasteryKey =
    "stack=c,unified-memory=b,built-not-available=c,placement-and-shape=c,fallback-diagnosis=d,"
    "honest-timing=d,batch-bytes=a,memory-tools=d,worth-it=c,cross-device-results=d,"
    "iteration-zero-and-mfu=c,compile-and-lazy=a,input-bound-split=d,accumulate-divide=c,"
    "kernel-tail-and-barrier=b";

// A fresh directory for one test (scratch_directory.h), holding the progress file that
// MPS_COURSE_PROGRESS names.
struct ScratchProgress {
  std::filesystem::path path;
  explicit ScratchProgress(const std::string& name)
      : path(scratch_directory("quiz_test_" + name) / "progress.json") {
    setenv("MPS_COURSE_PROGRESS", path.c_str(), 1);
  }
};

// "N of M lessons verified" as `quiz progress` says it, M the number of lessons the course has.
inline std::string lessons_verified_line(int verified) {
  const auto lessons = engine::notebook::read_catalog(TUTOR_SOURCE_DIR).lessons.size();
  return std::to_string(verified) + " of " + std::to_string(lessons) + " lessons verified";
}

struct Run {
  int status;
  std::string out, err;
};

inline Run quiz_run(const std::vector<std::string>& args, const std::string& input = "") {
  std::istringstream in(input);
  std::ostringstream out, err;
  const int status = quiz::run(args, in, out, err, kPaths);
  return {status, out.str(), err.str()};
}

// What a run printed, however it was wrapped: its line breaks as spaces.
inline std::string as_one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

}  // namespace quiz_test

using quiz_test::as_one_line;
using quiz_test::kMasteryKey;
using quiz_test::kPaths;
using quiz_test::quiz_run;
using quiz_test::Run;
using quiz_test::ScratchProgress;
