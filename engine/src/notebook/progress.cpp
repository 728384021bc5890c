#include "engine/notebook/progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <system_error>

namespace engine::notebook {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// "2026-11-21T10:00:00Z"
std::string utc_now(const char* format = "%Y-%m-%dT%H:%M:%SZ") {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, format, &utc);
  return text;
}

Progress from_json(const json& j) {
  Progress p;
  p.lessons_verified = j.at("lessons_verified").get<std::map<std::string, std::string>>();
  for (const auto& [name, q] : j.at("quizzes").items()) {
    QuizRecord& r = p.quizzes[name];
    r.attempts = q.at("attempts").get<int>();
    r.best_correct = q.at("best_correct").get<int>();
    r.total = q.at("total").get<int>();
    r.passed = q.at("passed").get<bool>();
    r.last_seed = q.at("last_seed").get<std::uint64_t>();
    r.last_missed = q.at("last_missed").get<std::vector<std::string>>();
  }
  if (const auto labs = j.find("labs"); labs != j.end()) {  // absent in files from before the labs
    for (const auto& [name, l] : labs->items()) {
      LabRecord& r = p.labs[name];
      r.passed_at = l.at("passed_at").get<std::string>();
      r.hints_shown = l.at("hints_shown").get<int>();
    }
  }
  return p;
}

json to_json(const Progress& p) {
  json quizzes = json::object();
  for (const auto& [name, r] : p.quizzes) {
    quizzes[name] = {{"attempts", r.attempts}, {"best_correct", r.best_correct}, {"total", r.total},
                     {"passed", r.passed}, {"last_seed", r.last_seed}, {"last_missed", r.last_missed}};
  }
  json labs = json::object();
  for (const auto& [name, r] : p.labs) labs[name] = {{"passed_at", r.passed_at}, {"hints_shown", r.hints_shown}};
  return {{"format", 1}, {"lessons_verified", p.lessons_verified}, {"quizzes", quizzes}, {"labs", labs}};
}

}  // namespace

fs::path progress_path() {
  if (const char* chosen = std::getenv("MPS_COURSE_PROGRESS"); chosen != nullptr && *chosen != '\0') return chosen;
  if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state != '\0') {
    return fs::path(state) / "mps-course" / "progress.json";
  }
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : ".") / ".local" / "state" / "mps-course" / "progress.json";
}

std::optional<std::string> lesson_number(std::string_view name) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (name.size() < 4 || !digit(name[0]) || !digit(name[1]) || name[2] != '_') return std::nullopt;
  return std::string(name.substr(0, 2));
}

Progress load_progress(const fs::path& path, std::ostream& report) {
  std::ifstream in(path);
  if (!in) return {};
  try {
    const json j = json::parse(in);
    if (j.value("format", 0) != 1) throw std::runtime_error("unknown format");
    return from_json(j);
  } catch (const std::exception& e) {
    in.close();
    fs::path aside = path;
    aside += ".corrupt-" + utc_now("%Y%m%d-%H%M%S");
    std::error_code moved;
    fs::rename(path, aside, moved);
    report << "The progress file " << path.string() << " could not be read (" << e.what() << ").\n";
    if (moved) {
      report << "It could not be moved aside either (" << moved.message() << "); it is left as it is.\n";
      throw std::runtime_error("unreadable progress file " + path.string());
    }
    report << "It is kept as " << aside.string() << "; a new progress file starts now.\n";
    return {};
  }
}

void save_progress(const Progress& progress, const fs::path& path) {
  std::error_code ignored;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ignored);
  fs::path temporary = path;
  temporary += ".tmp-" + std::to_string(getpid());  // two programs saving at once never share one
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << to_json(progress).dump(2) << '\n';
    if (!out) throw std::runtime_error("cannot write the progress file " + temporary.string());
  }
  std::error_code renamed;
  fs::rename(temporary, path, renamed);
  if (renamed) throw std::runtime_error("cannot replace the progress file " + path.string() + ": " + renamed.message());
}

void update_progress(const fs::path& path, std::ostream& report, const std::function<void(Progress&)>& change) {
  Progress progress = load_progress(path, report);
  change(progress);
  save_progress(progress, path);
}

std::string progress_timestamp() { return utc_now(); }

void record_lesson_verified(const std::string& lesson, std::ostream& report) {
  try {
    update_progress(progress_path(), report,
                    [&](Progress& progress) { progress.lessons_verified[lesson] = utc_now(); });
  } catch (const std::exception& e) {
    report << "The course progress was not recorded: " << e.what() << '\n';
  }
}

}  // namespace engine::notebook
