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
//   renamed over it); a failed write (a full disk, a read-only folder, a `ulimit -f`) leaves
//   the old file as it was and is an error;
// - it outlives the course changing (Note [Progress versions]): a field it does not know and a
//   missed question that a bank no longer has are kept and ignored;
// - every value the course uses is validated on load; a file that is unreadable (not JSON, a
//   value of the wrong type or out of range) is never overwritten: the next command that records
//   progress moves it aside, tells the learner where, and starts a new file; commands that only
//   read it leave it where it is;
// - anything at the path that is not a regular file (a directory, a FIFO, a device, a symbolic
//   link) is an error that leaves it as it is.
//
// Note [Progress versions]
// The file carries the version of its shape ("version": 2; the first shape said "format": 1
// instead, and reads as version 1). A field that only adds to what the file says (a new record,
// a new field of a record) needs no new version: an older course keeps it, unread, and writes
// it back. The version goes up only when an older course would misread the file. A file of a
// newer version than this course's is read as far as it can be (a record it cannot read is left
// out of what is shown) and never written: recording in it could undo what the newer course
// wrote, so it is left as it is and the learner is asked to update the course.

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

// The shape of the progress file that this course writes (Note [Progress versions]).
inline constexpr int kProgressVersion = 2;

// The fields of a part of the file that this course does not know, each as its JSON text; kept
// so that writing the file back loses nothing a newer course wrote there. Members of this type
// are initialised ({}) so that a designated initializer may leave them out without a warning.
using UnknownFields = std::map<std::string, std::string>;

struct QuizRecord {
  static constexpr int kMaxAttempts = 1'000'000;  // counting stops here: a count that fits
  static constexpr int kMaxQuestions = 1'000;

  int attempts = 0;
  int best_correct = 0;
  int total = 0;
  bool passed = false;
  std::uint64_t last_seed = 0;
  // The question ids the last attempt missed, for practising only those; an id the bank no
  // longer has is kept and ignored.
  std::vector<std::string> last_missed;
  UnknownFields unknown{};
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
  UnknownFields unknown{};
};

struct Progress {
  // A lesson's number, or a section's of a lesson in sections ("08.2": lesson_names.h), -> when,
  // "2026-11-21T10:00:00Z"; and -> the machine, "m3-max-64gb".
  std::map<std::string, std::string> lessons_verified;
  std::map<std::string, std::string> lessons_verified_on;
  std::map<std::string, QuizRecord> quizzes;  // quiz name -> record
  std::map<std::string, LabRecord> labs;      // "03_fallback" -> record
  UnknownFields unknown{};

  int version = kProgressVersion;  // of the file it was read from
  // Of a file of a newer version: each part this course could not read and why
  // ("quizzes.mastery.attempts: expected a whole number, found \"3\""); left out of the above.
  std::vector<std::string> unread;
};

// Where the progress file is (above). Without HOME, the home folder is the one the system's
// user database names; throws std::runtime_error, naming MPS_COURSE_PROGRESS and
// XDG_STATE_HOME, where there is none either.
std::filesystem::path progress_path();

// Whether a lesson is verified: every one of its programs, its own number or each of its sections'
// ("08.1", "08.2": CatalogEntry::program_numbers).
bool lesson_verified(const Progress& progress, const std::vector<std::string>& program_numbers);

// The progress that a file's text holds, of any version (Note [Progress versions]). Throws
// std::invalid_argument naming the field that is wrong and why ("quizzes.mastery.attempts: -1
// is out of range 0..1000000") when the text is unreadable; a file of a newer version is read as
// far as it can be instead (Progress::unread).
Progress parse_progress(std::string_view text);

// The text of the file that holds `progress`, in this course's version, with every unknown
// field kept where it was read. Throws std::runtime_error if it would be larger than a file may
// be, and std::logic_error if it would not read back.
std::string progress_text(const Progress& progress);

// Reads the progress at `path`, for showing it, and changes nothing on disk. A missing file is
// empty progress. An unreadable one is reported on `report` and left where it is (the next
// update_progress moves it aside), and empty progress is returned; what could not be read of a
// newer version's file is reported too. Throws std::runtime_error if something other than a
// regular file is at `path` or it cannot be read.
Progress load_progress(const std::filesystem::path& path, std::ostream& report);

// The one way to change the progress file: takes the lock, loads the file, lets `change` modify
// it, and saves it durably. An unreadable file is moved to "<name>.corrupt-<time>" first and
// reported on `report` with both paths, and `change` starts from empty progress. Throws
// std::runtime_error naming the path and the reason if it cannot be recorded (then the file on
// disk is as it was), among them a file of a newer version, which is never written.
void update_progress(const std::filesystem::path& path, std::ostream& report,
                     const std::function<void(Progress&)>& change);

// The current time as the progress file records it: "2026-11-21T10:00:00Z".
std::string progress_timestamp();

// Records a lesson ("05") as verified now, on a simulated machine ("m1-8gb"); throws as
// update_progress does.
void record_lesson_verified(const std::string& lesson, std::string_view machine,
                            std::ostream& report);

}  // namespace engine::notebook
