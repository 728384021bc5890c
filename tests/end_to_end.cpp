#include "end_to_end.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <stdexcept>

namespace end_to_end {
namespace {

// {"lesson02", "/path/to/build/lessons/lesson02"}, ..., written by CMake for this executable.
const std::map<std::string, std::string, std::less<>> kPrograms = {
#include TUTOR_END_TO_END_PROGRAMS
};

std::string shown(const Run& run) {
  return "status " + std::to_string(run.status) +
         (run.stopped ? " (stopped at the time limit)" : "") + ", output:\n" + run.output;
}

}  // namespace

std::string program(std::string_view target) {
  const auto it = kPrograms.find(target);
  if (it == kPrograms.end()) {
    throw std::invalid_argument("no program '" + std::string(target) +
                                "' in this test's table (tests/CMakeLists.txt)");
  }
  return it->second;
}

std::string source(std::string_view relative) {
  return (std::filesystem::path(TUTOR_SOURCE_DIR) / relative).string();
}

std::string scratch(std::string_view name) {
  const std::filesystem::path folder = std::filesystem::path(TUTOR_END_TO_END_SCRATCH) / name;
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder.string();
}

void skip(std::string_view why) { MESSAGE("SKIPPED: " << why); }

Run run_program(const std::vector<std::string>& argv, Surroundings surroundings) {
  surroundings.environment.insert(
      surroundings.environment.begin(),
      {"NO_COLOR=1", "COLUMNS=80", "MPS_COURSE_PROGRESS=" TUTOR_TEST_PROGRESS_FILE});
  return engine::notebook::run_collecting(argv, std::nullopt, surroundings);
}

void expect_status(const Run& run, int status) { CHECK_MESSAGE(run.status == status, shown(run)); }

void expect_failure(const Run& run) { CHECK_MESSAGE(run.status != 0, shown(run)); }

void expect_text(const Run& run, std::initializer_list<std::string_view> texts) {
  for (const std::string_view text : texts) {
    CHECK_MESSAGE(run.output.find(text) != std::string::npos, "missing: " << text << "\n"
                                                                          << shown(run));
  }
}

void expect_no_text(const Run& run, std::initializer_list<std::string_view> texts) {
  for (const std::string_view text : texts) {
    CHECK_MESSAGE(run.output.find(text) == std::string::npos, "unexpected: " << text << "\n"
                                                                             << shown(run));
  }
}

}  // namespace end_to_end
