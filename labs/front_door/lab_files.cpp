// The learner's lab file: TODO lines as the starter writes them, and reset with a kept copy.

#include "lab_files.h"

#include <ctime>
#include <fstream>
#include <regex>

namespace front_door {

namespace fs = std::filesystem;

std::vector<TodoLine> open_todos(const fs::path& file) {
  static const std::regex todo(R"re(^\s*TODO\("([^"]*)",\s*"((?:[^"\\]|\\.)*)"\))re");
  std::vector<TodoLine> todos;
  std::ifstream in(file);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::smatch match;
    if (std::regex_search(line, match, todo)) todos.push_back({number, match[1], match[2]});
  }
  return todos;
}

fs::path reset_to_starter(const fs::path& learner_file, const fs::path& starter) {
  fs::path kept;
  if (fs::exists(learner_file)) {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    kept = learner_file.parent_path() / ("lab.kept-" + std::string(stamp) + ".cpp");
    for (int n = 2; fs::exists(kept); ++n) {  // two resets within a second keep both files
      kept = learner_file.parent_path() / ("lab.kept-" + std::string(stamp) + "-" + std::to_string(n) + ".cpp");
    }
    fs::rename(learner_file, kept);
  }
  fs::copy_file(starter, learner_file);
  return kept;
}

}  // namespace front_door
