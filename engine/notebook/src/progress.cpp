// Where the progress file is, and its reads and updates on disk: a read for showing changes
// nothing; an update holds the lock, sets an unreadable file aside and never writes a newer
// version's file (progress.h). The file's text is progress_format.cpp's.

#include "engine/notebook/progress.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <ostream>
#include <stdexcept>

#include "progress_fields.h"
#include "state_file.h"

namespace engine::notebook {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxUnreadShown = 3;  // of a newer file's parts, in a report

// "2026-11-21T10:00:00Z"
std::string utc_now(const char* format = "%Y-%m-%dT%H:%M:%SZ") {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, format, &utc);
  return text;
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// The learner's home: HOME, else the user database's (a program started without HOME, by cron
// or `env -i`, must not put the file wherever it happens to run).
fs::path home_folder() {
  if (std::string home = environment("HOME"); !home.empty()) return home;
  if (const passwd* user = ::getpwuid(::geteuid());
      user != nullptr && user->pw_dir != nullptr && *user->pw_dir != '\0') {
    return user->pw_dir;
  }
  throw std::runtime_error(
      "cannot tell where your progress is kept: HOME is not set and the user database names no "
      "home folder; set MPS_COURSE_PROGRESS to the file to use (or XDG_STATE_HOME to a folder)");
}

// The progress at `path`, or why its file is unreadable.
struct Loaded {
  Progress progress;
  std::string problem;
};

Loaded read_progress(const fs::path& path) {
  // One byte more than a file may have, so that parse_progress can say it is too large.
  const auto contents = read_state_file(path, progress_fields::kMaxFileBytes + 1);
  if (!contents) return {};
  try {
    return {parse_progress(*contents), ""};
  } catch (const std::invalid_argument& e) {
    return {{}, e.what()};
  }
}

std::string newer_version(const fs::path& path, int version) {
  return "the progress file " + path.string() + " was written by a newer version of the course (" +
         "its version " + std::to_string(version) + "; this one writes version " +
         std::to_string(kProgressVersion) + ")";
}

void report_unread(const fs::path& path, const Progress& progress, std::ostream& report) {
  if (progress.unread.empty()) return;
  std::string parts;
  for (std::size_t i = 0; i < std::min(progress.unread.size(), kMaxUnreadShown); ++i)
    parts += (parts.empty() ? "" : "; ") + progress.unread[i];
  if (progress.unread.size() > kMaxUnreadShown)
    parts += "; and " + std::to_string(progress.unread.size() - kMaxUnreadShown) + " more";
  std::string text = newer_version(path, progress.version);
  text[0] = 'T';
  report << text << ". What this one cannot read of it is not shown (" << parts << ").\n";
}

}  // namespace

fs::path progress_path() {
  if (std::string chosen = environment("MPS_COURSE_PROGRESS"); !chosen.empty()) return chosen;
  if (std::string state = environment("XDG_STATE_HOME"); !state.empty())
    return fs::path(state) / "mps-course" / "progress.json";
  return home_folder() / ".local" / "state" / "mps-course" / "progress.json";
}

bool lesson_verified(const Progress& progress, const std::vector<std::string>& program_numbers) {
  return std::all_of(
      program_numbers.begin(), program_numbers.end(),
      [&](const std::string& number) { return progress.lessons_verified.count(number) > 0; });
}

Progress load_progress(const fs::path& path, std::ostream& report) {
  Loaded loaded;
  try {
    loaded = read_progress(path);
  } catch (const StateFileError& e) {
    throw std::runtime_error(std::string("cannot use the progress file: ") + e.what());
  }
  if (!loaded.problem.empty()) {
    report << "The progress file " << path.string() << " could not be read (" << loaded.problem
           << ").\nIt is left as it is for now; the next command that records progress keeps it as "
           << path.filename().string() << ".corrupt-<time> and starts a new file.\n";
    return {};
  }
  report_unread(path, loaded.progress, report);
  return std::move(loaded.progress);
}

void update_progress(const fs::path& path, std::ostream& report,
                     const std::function<void(Progress&)>& change) {
  const StateFileLock lock(path);
  remove_stale_temporaries(path);
  Loaded loaded = read_progress(path);
  if (!loaded.problem.empty()) {
    const fs::path aside = set_aside_state_file(path, ".corrupt-" + utc_now("%Y%m%d-%H%M%S"));
    report << "The progress file " << path.string() << " could not be read (" << loaded.problem
           << ").\n"
           << "It is kept as " << aside.string() << "; a new progress file starts now.\n";
  } else if (loaded.progress.version > kProgressVersion) {
    throw std::runtime_error(newer_version(path, loaded.progress.version) +
                             ", and is left as it is so that nothing it holds is lost; update "
                             "the course to record your progress in it");
  }
  change(loaded.progress);
  replace_state_file(path, progress_text(loaded.progress));
}

std::string progress_timestamp() { return utc_now(); }

void record_lesson_verified(const std::string& lesson, std::string_view machine,
                            std::ostream& report) {
  update_progress(progress_path(), report, [&](Progress& progress) {
    progress.lessons_verified[lesson] = utc_now();
    progress.lessons_verified_on[lesson] = machine;
  });
}

}  // namespace engine::notebook
