#pragma once
// The learner's progress through the course, kept in one JSON file: which lessons ran with
// every cell matching its documentation, and on which machine; each quiz's attempts, best score
// and last misses; and each lab's hints, when its tests first passed, and its last verdict.
// The file lives in the XDG state directory ($XDG_STATE_HOME/mps-course/progress.json, by
// default ~/.local/state/mps-course/progress.json) unless MPS_COURSE_PROGRESS names another.
// It is the learner's own work, so it is never lost:
// - every change is one read-modify-write under an advisory lock ("progress.json.lock"), so
//   programs that record at the same time never lose each other's updates;
// - it is replaced durably (a temporary file beside it, flushed to the disk and checked, then
//   renamed over it); a failed write leaves the old file as it was and is an error;
// - every field is validated on load, and a file that fails (bad JSON, wrong types, values out
//   of range, a missed question its quiz does not have) is never overwritten: it is moved
//   aside, the learner is told where, and a new file starts;
// - anything at the path that is not a regular file (a directory, a FIFO, a device, a symbolic
//   link) is an error that leaves it as it is.

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
  static constexpr int kMaxAttempts = 1'000'000;  // counting stops here: a count that fits
  static constexpr int kMaxQuestions = 1'000;

  int attempts = 0;
  int best_correct = 0;
  int total = 0;
  bool passed = false;
  std::uint64_t last_seed = 0;
  std::vector<std::string> last_missed;  // question ids, for retrying only those
};

// The verdict on one version of a learner's lab file, which its digest names
// (labs/harness/include/harness/learner_source.h).
struct LabCheck {
  std::string source;  // "fnv1a64-0123456789abcdef"
  bool passed = false;

  bool operator==(const LabCheck&) const = default;
};

struct LabRecord {
  static constexpr int kMaxHints = 1'000;

  std::string passed_at;  // when the learner's lab first passed its tests; empty: not yet
  int hints_shown = 0;    // how many of its hints the learner has asked for
  std::optional<LabCheck> last_check{};  // the verdict of its last check; none in older files
};

struct Progress {
  // A lesson's number, or a section's of a lesson in sections ("08.2": lesson_names.h), -> when,
  // "2026-11-21T10:00:00Z"; and -> the machine, "m3-max-64gb".
  std::map<std::string, std::string> lessons_verified;
  std::map<std::string, std::string> lessons_verified_on;
  std::map<std::string, QuizRecord> quizzes;  // quiz name -> record
  std::map<std::string, LabRecord> labs;      // "03_fallback" -> record
};

std::filesystem::path progress_path();

// Whether a lesson is verified: every one of its programs, its own number or each of its sections'
// ("08.1", "08.2": CatalogEntry::program_numbers).
bool lesson_verified(const Progress& progress, const std::vector<std::string>& program_numbers);

// Each quiz's question ids, where the caller knows the banks: a record of a quiz named here
// that lists any other id as missed is corrupt.
using QuizQuestionIds = std::map<std::string, std::vector<std::string>>;

// The progress that a file's text holds. Throws std::invalid_argument naming the field that is
// wrong and why ("quizzes.mastery.attempts: -1 is out of range 0..1000000") unless the text is
// valid progress: what load_progress and update_progress validate with.
Progress parse_progress(std::string_view text, const QuizQuestionIds& known = {});

// Reads the progress at `path`, for showing it. A missing file is empty progress. A corrupt
// one is moved to "<name>.corrupt-<time>" and reported on `report` with both paths, and empty
// progress is returned (also when it cannot be moved; the report says so). Throws
// std::runtime_error if something other than a regular file is at `path` or it cannot be read.
Progress load_progress(const std::filesystem::path& path, std::ostream& report,
                       const QuizQuestionIds& known = {});

// The one way to change the progress file: takes the lock, loads the file (a corrupt one is
// handled as by load_progress), lets `change` modify it, and saves it durably. Throws
// std::runtime_error naming the path and the reason if it cannot be recorded; then the file on
// disk is as it was.
void update_progress(const std::filesystem::path& path, std::ostream& report,
                     const std::function<void(Progress&)>& change);
void update_progress(const std::filesystem::path& path, std::ostream& report,
                     const QuizQuestionIds& known, const std::function<void(Progress&)>& change);

// The current time as the progress file records it: "2026-11-21T10:00:00Z".
std::string progress_timestamp();

// Records a lesson ("05") as verified now, on a simulated machine ("m1-8gb"); throws as
// update_progress does.
void record_lesson_verified(const std::string& lesson, std::string_view machine,
                            std::ostream& report);

}  // namespace engine::notebook
