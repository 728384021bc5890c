#pragma once
// The learner's progress through the course, kept in one JSON file: which lessons ran with
// every cell matching its documentation, each quiz's attempts, best score and last misses, and
// each lab's hints and when its tests first passed.
// The file lives in the XDG state directory ($XDG_STATE_HOME/mps-course/progress.json, by
// default ~/.local/state/mps-course/progress.json) unless MPS_COURSE_PROGRESS names another.
// Writes are atomic (a temporary file, then a rename). A file that cannot be read as progress
// is never overwritten: it is moved aside, the learner is told where, and a new file starts.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engine::notebook {

struct QuizRecord {
  int attempts = 0;
  int best_correct = 0;
  int total = 0;
  bool passed = false;
  std::uint64_t last_seed = 0;
  std::vector<std::string> last_missed;  // question ids, for retrying only those
};

struct LabRecord {
  std::string passed_at;  // when the learner's lab first passed its tests; empty: not yet
  int hints_shown = 0;    // how many of its hints the learner has asked for
};

struct Progress {
  std::map<std::string, std::string> lessons_verified;  // "03" -> when, "2026-11-21T10:00:00Z"
  std::map<std::string, QuizRecord> quizzes;            // quiz name -> record
  std::map<std::string, LabRecord> labs;                // "03_fallback" -> record
};

std::filesystem::path progress_path();

// A lesson's number from its name ("03_placement_..." -> "03"); nullopt for names that are not
// of the form NN_topic.
std::optional<std::string> lesson_number(std::string_view lesson_name);

// A missing file is empty progress. A corrupt one is renamed to "<name>.corrupt-<time>",
// reported on `report` with both paths, and empty progress is returned.
Progress load_progress(const std::filesystem::path& path, std::ostream& report);
// Writes `progress` to a temporary file beside `path`, then renames it over `path`; throws
// std::runtime_error naming the path if either step fails.
void save_progress(const Progress& progress, const std::filesystem::path& path);

// Loads the progress at `path`, lets `change` modify it, and saves it, as one update; corrupt
// files are handled as by load_progress. Throws std::runtime_error if it cannot be saved.
void update_progress(const std::filesystem::path& path, std::ostream& report,
                     const std::function<void(Progress&)>& change);

// The current time as the progress file records it: "2026-11-21T10:00:00Z".
std::string progress_timestamp();

// Records a lesson ("05") as verified now; reports, instead of throwing, if the file cannot be
// written, since a lesson's run must not fail over its bookkeeping.
void record_lesson_verified(const std::string& lesson, std::ostream& report);

}  // namespace engine::notebook
