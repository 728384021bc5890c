// The catalog: the course's lessons and labs (engine/notebook/course_catalog.h), the question
// banks, and the path through them.

#include "catalog.h"

#include <algorithm>

#include "engine/notebook/course_catalog.h"
#include "quiz/bank.h"

namespace front_door {
namespace {

namespace fs = std::filesystem;
using engine::notebook::Progress;

// The Metal kernels of a lab whose starter/ has no lab.cpp: its .metal files, in name order, as
// the build lists them (tutor_add_run_time_lab in cmake/TutorLabs.cmake).
std::vector<std::string> files_read_at_run_time(const fs::path& lab) {
  std::vector<std::string> files;
  std::error_code ignored;
  if (fs::exists(lab / "starter" / "lab.cpp", ignored)) return files;
  for (const fs::directory_entry& entry : fs::directory_iterator(lab / "starter", ignored)) {
    if (entry.path().extension() == ".metal") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::vector<fs::path> LabInfo::learner_files() const {
  std::vector<fs::path> paths;
  for (const std::string& file : files) paths.push_back(learner_file(file));
  return paths;
}

Catalog::Catalog(const Layout& layout) {
  const engine::notebook::CourseCatalog course = engine::notebook::read_catalog(layout.top);
  for (const engine::notebook::CatalogEntry& lesson : course.lessons) {
    LessonInfo info{lesson.number, lesson.name, lesson.title, lesson.file};
    for (const engine::notebook::CatalogEntry& section : lesson.sections)
      info.sections.push_back({section.number, section.name, section.title, section.file});
    lessons_.push_back(std::move(info));
  }
  for (const engine::notebook::CatalogEntry& lab : course.labs) {
    labs_.push_back({lab.number, lab.name, lab.title, lab.file.parent_path()});
    if (const auto read = files_read_at_run_time(labs_.back().dir); !read.empty())
      labs_.back().files = read;
    labs_.back().after_lesson = lab.after_lesson;
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

std::vector<const LessonInfo*> LessonInfo::programs() const {
  if (sections.empty()) return {this};
  std::vector<const LessonInfo*> each;
  for (const LessonInfo& section : sections) each.push_back(&section);
  return each;
}

const LessonInfo* Catalog::lesson(std::string_view number) const {
  const auto numbered = [](const std::vector<LessonInfo>& lessons, std::string_view wanted) {
    const auto it = std::find_if(lessons.begin(), lessons.end(),
                                 [&](const LessonInfo& l) { return l.number == wanted; });
    return it == lessons.end() ? nullptr : &*it;
  };
  const LessonInfo* lesson = numbered(lessons_, number.substr(0, 2));
  if (lesson == nullptr || number.size() == 2) return lesson;
  return numbered(lesson->sections, number);
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
      if (labs_[i].after_lesson == lesson.number) {
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

bool lesson_verified(const LessonInfo& lesson, const Progress& progress) {
  std::vector<std::string> numbers;
  for (const LessonInfo* program : lesson.programs()) numbers.push_back(program->number);
  return engine::notebook::lesson_verified(progress, numbers);
}

bool is_done(const Step& step, const Catalog& catalog, const Progress& progress) {
  switch (step.kind) {
    case StepKind::Lesson:
      return lesson_verified(*catalog.lesson(step.id), progress);
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

std::optional<std::string> lesson_or_section(std::string_view text) {
  const auto dot = text.find('.');
  const auto lesson = two_digits(text.substr(0, dot));
  if (!lesson || dot == std::string_view::npos) return lesson;
  const std::string_view section = text.substr(dot + 1);
  if (section.size() != 1 || section[0] < '1' || section[0] > '9') return std::nullopt;
  return *lesson + "." + std::string(section);
}

}  // namespace front_door
