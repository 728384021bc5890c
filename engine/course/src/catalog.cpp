// The catalog: the course's lessons and labs (engine/notebook/course_catalog.h), the question
// banks, and the path through them.

#include "catalog.h"

#include <algorithm>
#include <fstream>

#include "engine/notebook/course_catalog.h"
#include "quiz/bank.h"

namespace front_door {
namespace {

namespace fs = std::filesystem;
using engine::notebook::Progress;

}  // namespace

Catalog::Catalog(const Layout& layout) {
  const engine::notebook::CourseCatalog course = engine::notebook::read_catalog(layout.top);
  for (const engine::notebook::CatalogEntry& lesson : course.lessons) {
    lessons_.push_back({lesson.number, lesson.name, lesson.title});
  }
  for (const engine::notebook::CatalogEntry& lab : course.labs) {
    labs_.push_back({lab.number, lab.name, lab.title, lab.file.parent_path()});
  }
  for (const fs::path& bank : quiz::bank_files(layout.top / "quizzes" / "banks")) {
    QuizInfo info{bank.stem().string(), bank.stem().string()};
    try {
      info.title = quiz::load_bank(bank).title;
    } catch (const std::exception&) {
      // A malformed bank keeps its file name here; `course quiz check` says what is wrong.
    }
    quizzes_.push_back(info);
  }
}

const LessonInfo* Catalog::lesson(std::string_view number) const {
  const auto it = std::find_if(lessons_.begin(), lessons_.end(),
                               [&](const LessonInfo& l) { return l.number == number; });
  return it == lessons_.end() ? nullptr : &*it;
}

const LabInfo* Catalog::lab(std::string_view number) const {
  const auto it = std::find_if(labs_.begin(), labs_.end(),
                               [&](const LabInfo& l) { return l.number == number; });
  return it == labs_.end() ? nullptr : &*it;
}

const QuizInfo* Catalog::quiz(std::string_view name) const {
  const auto it = std::find_if(quizzes_.begin(), quizzes_.end(),
                               [&](const QuizInfo& q) { return q.name == name; });
  return it == quizzes_.end() ? nullptr : &*it;
}

std::vector<Step> Catalog::path() const {
  std::vector<Step> steps;
  std::vector<bool> placed(labs_.size(), false);
  for (const LessonInfo& lesson : lessons_) {
    steps.push_back({StepKind::Lesson, lesson.number});
    for (std::size_t i = 0; i < labs_.size(); ++i) {
      if (labs_[i].number == lesson.number) {
        steps.push_back({StepKind::Lab, labs_[i].number});
        placed[i] = true;
      }
    }
    if (quiz("lesson" + lesson.number) != nullptr)
      steps.push_back({StepKind::Quiz, "lesson" + lesson.number});
  }
  for (std::size_t i = 0; i < labs_.size(); ++i) {
    if (!placed[i]) steps.push_back({StepKind::Lab, labs_[i].number});
  }
  for (const QuizInfo& q : quizzes_) {
    const bool listed =
        std::any_of(steps.begin(), steps.end(), [&](const Step& s) { return s.id == q.name; });
    if (!listed) steps.push_back({StepKind::Quiz, q.name});
  }
  return steps;
}

bool lab_passed(const LabInfo& lab, const Progress& progress) {
  const auto it = progress.labs.find(lab.name);
  return it != progress.labs.end() && !it->second.passed_at.empty();
}

bool is_done(const Step& step, const Catalog& catalog, const Progress& progress) {
  switch (step.kind) {
    case StepKind::Lesson:
      return progress.lessons_verified.count(step.id) > 0;
    case StepKind::Lab:
      return lab_passed(*catalog.lab(step.id), progress);
    case StepKind::Quiz:
      break;
  }
  const auto it = progress.quizzes.find(step.id);
  return it != progress.quizzes.end() && it->second.passed;
}

std::optional<Step> next_step(const Catalog& catalog, const Progress& progress) {
  for (const Step& step : catalog.path()) {
    if (!is_done(step, catalog, progress)) return step;
  }
  return std::nullopt;
}

const LabInfo* current_lab(const Catalog& catalog, const Progress& progress) {
  for (const Step& step : catalog.path()) {
    if (step.kind == StepKind::Lab && !is_done(step, catalog, progress))
      return catalog.lab(step.id);
  }
  return nullptr;
}

std::optional<std::string> two_digits(std::string_view text) {
  if (text.empty() || text.size() > 2) return std::nullopt;
  if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return text.size() == 1 ? "0" + std::string(text) : std::string(text);
}

}  // namespace front_door
