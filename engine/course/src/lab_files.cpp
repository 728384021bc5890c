// The learner's lab file: its TODO lines (read by the lab format's own parser), and reset with a
// kept copy.

#include "lab_files.h"

#include <ctime>
#include <optional>

namespace front_door {

namespace fs = std::filesystem;

namespace {

// The file's bytes; none when it is missing or cannot be read (read_lab_file refuses a FIFO or a
// device, which would hang or never end, and a file far larger than a lab file).
std::optional<std::string> file_text(const fs::path& file) {
  try {
    return harness::read_lab_file(file);
  } catch (const harness::DecoyError&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<TodoLine> open_todos(const fs::path& file) {
  const std::optional<std::string> text = file_text(file);
  return text ? harness::todo_lines(*text) : std::vector<TodoLine>{};
}

bool is_starter(const fs::path& learner_file, const fs::path& starter) {
  const std::optional<std::string> learners = file_text(learner_file);
  return learners && learners == file_text(starter);
}

std::string why_unreadable(const harness::DecoyError& error) {
  const std::string message = error.what();
  const std::string_view mark = ": cannot be read: ";
  const std::size_t at = message.find(mark);
  return at == std::string::npos ? message : message.substr(at + mark.size());
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
