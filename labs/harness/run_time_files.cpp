// harness::run_time_file, compiled into each version's program of a lab whose files are read at
// run time, with the build's definitions: TUTOR_RUN_TIME_FOLDER, the folder of this version's
// files; TUTOR_RUN_TIME_FILES, their names, separated by ','; TUTOR_RUN_TIME_LEARNERS, 1 in the
// learner's program, which reports the digest of what it read (harness/built_from.h); and
// TUTOR_SOURCE_DIR, the course's top folder, from which a file's name is shown.

#include "harness/run_time_files.h"

#include <optional>
#include <string>
#include <vector>

#include "harness/built_from.h"
#include "harness/lab_source.h"
#include "harness/learner_source.h"

namespace harness {
namespace {

std::vector<std::string> file_names() {
  std::vector<std::string> names;
  std::string_view list = TUTOR_RUN_TIME_FILES;
  while (!list.empty()) {
    const std::size_t end = list.find(',');
    names.emplace_back(list.substr(0, end));
    list = end == std::string_view::npos ? std::string_view() : list.substr(end + 1);
  }
  return names;
}

// Every file, read once before main(); what went wrong instead, for the tests to report.
struct ReadAtStart {
  std::optional<LearnerFiles> files;
  std::string error;
};

const ReadAtStart& read_at_start() {
  static const ReadAtStart read = [] {
    try {
      return ReadAtStart{read_learner_files(TUTOR_RUN_TIME_FOLDER, file_names()), ""};
    } catch (const DecoyError& e) {
      return ReadAtStart{std::nullopt, e.what()};
    }
  }();
  return read;
}

// The learner's program says what it read; the other versions declare nothing.
[[maybe_unused]] const std::optional<BuiltFrom> kBuiltFrom =
    TUTOR_RUN_TIME_LEARNERS && read_at_start().files
        ? std::optional<BuiltFrom>(read_at_start().files->digest.c_str())
        : std::nullopt;

}  // namespace

RunTimeFile run_time_file(std::string_view name) {
  const ReadAtStart& read = read_at_start();
  if (!read.files) throw DecoyError(read.error);
  const auto it = read.files->texts.find(std::string(name));
  if (it == read.files->texts.end())
    throw DecoyError(std::string(name) + ": not a file of this lab");
  const std::filesystem::path path = std::filesystem::path(TUTOR_RUN_TIME_FOLDER) / name;
  const std::filesystem::path inside = path.lexically_relative(TUTOR_SOURCE_DIR);
  const bool in_course = !inside.empty() && *inside.begin() != "..";
  return {path, (in_course ? inside : path).generic_string(), it->second};
}

}  // namespace harness
