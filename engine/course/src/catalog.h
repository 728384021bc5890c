#pragma once
// What the course holds, in the order a learner meets it: each lesson, then its lab (the lab of
// its number, or one whose README says it comes after it), then its
// self-check; then the labs that draw on several lessons; then the mastery check. Each step is
// done when the progress file says so: a lesson verified, a lab passed, a quiz passed.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/notebook/progress.h"
#include "layout.h"

namespace front_door {

struct LessonInfo {
  std::string number;          // "02"; a section's "08.2"
  std::string name;            // "02_device_checks"
  std::string title;           // "Asking PyTorch whether MPS can run"
  std::filesystem::path file;  // lessons/02_device_checks.cpp; a lesson in sections: its shared.h
  std::vector<LessonInfo> sections{};  // a lesson in sections: each, in order

  // What a learner runs for it, in order: the lesson itself, or each of its sections.
  std::vector<const LessonInfo*> programs() const;
};

struct LabInfo {
  std::string number;         // "02"
  std::string name;           // "02_device_checks", its key in the progress file
  std::string title;          // "Device checks"
  std::filesystem::path dir;  // labs/02_device_checks
  // What the learner writes, in the lab folder: {"lab.cpp"}, compiled into the lab's program; or,
  // in a lab whose program reads them as it runs (lab 9's Metal kernels), each file its starter/
  // holds, in name order: {"01_map.metal", ...}. Saving one of those needs no build.
  std::vector<std::string> files{"lab.cpp"};
  // The lesson it follows on the course's path (the course catalog's after_lesson): "09" for lab
  // 08, "10" for lab 09.
  std::string after_lesson{};

  bool read_at_run_time() const { return files != std::vector<std::string>{"lab.cpp"}; }
  std::filesystem::path learner_file(const std::string& file) const { return dir / file; }
  std::filesystem::path starter_file(const std::string& file) const {
    return dir / "starter" / file;
  }
  std::vector<std::filesystem::path> learner_files() const;
  std::filesystem::path hints_file() const { return dir / "hints.md"; }
};

struct QuizInfo {
  std::string name;   // "lesson02", "mastery": what `quiz take` takes
  std::string title;  // "Lesson 2 self-check"
};

enum class StepKind { Lesson, Lab, Quiz };
struct Step {
  StepKind kind;
  std::string id;  // a lesson's or lab's number, a quiz's name
};

class Catalog {
 public:
  explicit Catalog(const Layout& layout);

  const std::vector<LessonInfo>& lessons() const noexcept { return lessons_; }
  const std::vector<LabInfo>& labs() const noexcept { return labs_; }
  const std::vector<QuizInfo>& quizzes() const noexcept { return quizzes_; }
  const LessonInfo* lesson(std::string_view number) const;  // "08", or a section's "08.2"
  const LabInfo* lab(std::string_view number) const;
  const QuizInfo* quiz(std::string_view name) const;

  std::vector<Step> path() const;

 private:
  std::vector<LessonInfo> lessons_;
  std::vector<LabInfo> labs_;
  std::vector<QuizInfo> quizzes_;
};

bool is_done(const Step& step, const Catalog& catalog, const engine::notebook::Progress& progress);
bool lab_passed(const LabInfo& lab, const engine::notebook::Progress& progress);
// Every program of the lesson (or the section) ran as its documentation says.
bool lesson_verified(const LessonInfo& lesson, const engine::notebook::Progress& progress);
// The first step not done yet; nullopt once the course is finished.
std::optional<Step> next_step(const Catalog& catalog, const engine::notebook::Progress& progress);
// The first lab, in course order, that has not passed yet.
const LabInfo* current_lab(const Catalog& catalog, const engine::notebook::Progress& progress);

// "5" or "05" -> "05"; nullopt for anything but one or two digits.
std::optional<std::string> two_digits(std::string_view text);
// A lesson's or a section's number as typed: "5" -> "05", "8.2" -> "08.2"; nullopt otherwise.
std::optional<std::string> lesson_or_section(std::string_view text);

}  // namespace front_door
