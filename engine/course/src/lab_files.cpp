// The learner's lab file: its TODO lines (read by the lab format's own parser), and reset with a
// kept copy.

#include "lab_files.h"

#include <ctime>
#include <fstream>
#include <sstream>

namespace front_door {

namespace fs = std::filesystem;

namespace {

// The file's bytes; empty when it is missing or cannot be read.
std::string file_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::vector<TodoLine> open_todos(const fs::path& file) {
  return harness::todo_lines(file_text(file));
}

bool is_starter(const fs::path& learner_file, const fs::path& starter) {
  return fs::exists(learner_file) && fs::exists(starter) &&
         fs::file_size(learner_file) == fs::file_size(starter) &&
         file_text(learner_file) == file_text(starter);
}

fs::path reset_to_starter(const fs::path& learner_file, const fs::path& starter) {
  if (is_starter(learner_file, starter)) return {};
  fs::path kept;
  if (fs::exists(learner_file)) {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    kept = learner_file.parent_path() / ("lab.kept-" + std::string(stamp) + ".cpp");
    for (int n = 2; fs::exists(kept); ++n) {  // two resets within a second keep both files
      kept = learner_file.parent_path() /
             ("lab.kept-" + std::string(stamp) + "-" + std::to_string(n) + ".cpp");
    }
    fs::rename(learner_file, kept);
  }
  fs::copy_file(starter, learner_file);
  return kept;
}

}  // namespace front_door
