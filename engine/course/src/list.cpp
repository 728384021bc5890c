// `course list`: every lesson, lab and quiz in course order, with the learner's state of each.

#include <algorithm>
#include <ostream>
#include <string>

#include "course.h"
#include "hints.h"
#include "lab_files.h"
#include "subcommand.h"

namespace front_door {
namespace {

using engine::notebook::Progress;

std::string lesson_state(const LessonInfo& lesson, const Progress& progress) {
  const auto it = progress.lessons_verified.find(lesson.number);
  if (it == progress.lessons_verified.end()) return "not verified yet";
  const auto machine = progress.lessons_verified_on.find(lesson.number);  // none in older files
  return "verified " + it->second.substr(0, 10) +
         (machine == progress.lessons_verified_on.end() ? "" : " on " + machine->second);
}

std::string lab_state(const LabInfo& lab, const Progress& progress) {
  const auto it = progress.labs.find(lab.name);
  const int hints = it == progress.labs.end() ? 0 : it->second.hints_shown;
  std::string state;
  if (it != progress.labs.end() && !it->second.passed_at.empty()) {
    state = "passed " + it->second.passed_at.substr(0, 10);
  } else {
    const std::size_t todos = open_todos(lab.learner_file()).size();
    state = todos == 0 ? "not passed yet" : std::to_string(todos) + (todos == 1 ? " TODO open" : " TODOs open");
  }
  if (hints > 0) state += ", " + std::to_string(hints) + (hints == 1 ? " hint" : " hints") + " used";
  return state;
}

std::string quiz_state(const QuizInfo& quiz, const Progress& progress) {
  const auto it = progress.quizzes.find(quiz.name);
  if (it == progress.quizzes.end() || it->second.attempts == 0) return "not taken yet";
  const auto& r = it->second;
  return std::string(r.passed ? "passed" : "not passed yet") + ", best " + std::to_string(r.best_correct) + "/" +
         std::to_string(r.total);
}

int list(Course& course, const Arguments& args) {
  if (!args.empty()) return usage_error(course, "list", "takes no arguments");
  const Catalog& catalog = course.catalog();
  const Progress progress = course.progress();
  const std::optional<Step> next = next_step(catalog, progress);
  auto row = [&](const Step& step, const std::string& label, const std::string& state) {
    const bool done = is_done(step, catalog, progress);
    const bool is_next = next && next->kind == step.kind && next->id == step.id;
    const std::string mark = done ? course.good("✔") : is_next ? "▶" : "·";
    const std::size_t width = 52;
    course.out() << "  " << mark << " " << label << std::string(width - std::min(width - 1, label.size()), ' ')
                 << state << '\n';
  };
  course.out() << "Lessons (" << course.command("run NN") << ")\n";
  for (const LessonInfo& l : catalog.lessons()) {
    row({StepKind::Lesson, l.number}, l.number + " · " + l.title, lesson_state(l, progress));
  }
  course.out() << "Labs (" << course.command("verify NN") << ")\n";
  for (const LabInfo& l : catalog.labs()) {
    row({StepKind::Lab, l.number}, l.number + " · " + l.title, lab_state(l, progress));
  }
  course.out() << "Quizzes (" << course.command("quiz take NAME") << ")\n";
  for (const QuizInfo& q : catalog.quizzes()) {
    row({StepKind::Quiz, q.name}, q.name + " · " + q.title, quiz_state(q, progress));
  }
  course.out() << "Your progress is kept in " << engine::notebook::progress_path().string() << ".\n";
  return 0;
}


}  // namespace

const Subcommand kListCommand{.name = "list",
                              .usage = "list",
                              .summary = "lessons, labs and quizzes in course order, with your progress",
                              .run = list};

}  // namespace front_door
