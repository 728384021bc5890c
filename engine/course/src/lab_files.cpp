// The learner's lab files: their TODO lines (read by the lab format's own parser), their digest,
// and reset with a kept copy.

#include "lab_files.h"

#include <ctime>
#include <optional>

#include "harness/learner_source.h"

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

std::vector<LabTodo> open_todos(const LabInfo& lab) {
  std::vector<LabTodo> todos;
  for (const fs::path& file : lab.learner_files()) {
    for (const TodoLine& todo : open_todos(file)) todos.push_back({file, todo});
  }
  return todos;
}

std::string digest_on_disk(const LabInfo& lab) {
  if (lab.read_at_run_time()) return harness::read_learner_files(lab.dir, lab.files).digest;
  return harness::read_learner_source(lab.learner_file("lab.cpp")).digest;
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
    const std::string stem = learner_file.stem().string() + ".kept-" + stamp;
    const std::string extension = learner_file.extension().string();
    kept = learner_file.parent_path() / (stem + extension);
    for (int n = 2; fs::exists(kept); ++n) {  // two resets within a second keep both files
      kept = learner_file.parent_path() / (stem + "-" + std::to_string(n) + extension);
    }
    fs::rename(learner_file, kept);
  }
  fs::copy_file(starter, learner_file);
  return kept;
}

}  // namespace front_door
