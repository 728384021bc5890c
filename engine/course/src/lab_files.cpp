// The learner's lab file: TODO lines as the starter writes them, and reset with a kept copy.

#include "lab_files.h"

#include <ctime>
#include <fstream>
#include <optional>

namespace front_door {

namespace fs = std::filesystem;

namespace {

// The text of a C++ string literal that starts at `at` (a quote), escapes kept as written, and
// where it ends; nullopt if it does not close on this line.
std::optional<std::string> string_literal(const std::string& line, std::size_t& at) {
  if (at >= line.size() || line[at] != '"') return std::nullopt;
  std::string text;
  for (++at; at < line.size() && line[at] != '"'; ++at) {
    if (line[at] == '\\' && at + 1 < line.size()) text += line[at++];
    text += line[at];
  }
  if (at >= line.size()) return std::nullopt;
  ++at;
  return text;
}

// TODO("5.1", "what to write"), first on its line but for indentation.
std::optional<TodoLine> todo_line(const std::string& line) {
  std::size_t at = line.find_first_not_of(" \t");
  if (at == std::string::npos || line.compare(at, 5, "TODO(") != 0) return std::nullopt;
  at += 5;
  const auto id = string_literal(line, at);
  if (!id || line.compare(at, 1, ",") != 0) return std::nullopt;
  at = line.find_first_not_of(" \t", at + 1);
  const auto what = string_literal(line, at);
  if (!what) return std::nullopt;
  return TodoLine{0, *id, *what};
}

}  // namespace

std::vector<TodoLine> open_todos(const fs::path& file) {
  std::vector<TodoLine> todos;
  std::ifstream in(file);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (auto todo = todo_line(line)) {
      todo->line = number;
      todos.push_back(*todo);
    }
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
