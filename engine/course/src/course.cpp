// The context of a subcommand, and the one next step the course suggests.

#include "course.h"

#include <unistd.h>

#include <algorithm>
#include <ostream>
#include <utility>

#include "engine/notebook/terminal_markdown.h"
#include "lab_files.h"

namespace front_door {

namespace fs = std::filesystem;
using engine::notebook::Progress;

Course::Course(Layout layout, std::istream& in, std::ostream& out, std::ostream& err, bool color)
    : layout_(std::move(layout)),
      catalog_(layout_),
      in_(in),
      out_(out),
      err_(err),
      color_(color),
      look_{.color = color, .width = engine::notebook::terminal_width(STDOUT_FILENO)} {}

void Course::say(std::string_view text, std::string_view indent) {
  out_ << engine::notebook::wrap(text, look_.width, "", indent);
}

void Course::show_markdown(std::string_view markdown) {
  out_ << engine::notebook::render_markdown(markdown, look_);
}

Progress Course::progress() {
  return engine::notebook::load_progress(engine::notebook::progress_path(), err_);
}

bool Course::update_progress(const std::function<void(Progress&)>& change) {
  try {
    engine::notebook::update_progress(engine::notebook::progress_path(), err_, change);
    return true;
  } catch (const std::exception& e) {
    err_ << "course: your progress was not saved: " << e.what() << '\n';
    return false;
  }
}

std::string Course::shown(const fs::path& path) const {
  const fs::path relative = path.lexically_relative(layout_.top);
  const bool inside = !relative.empty() && *relative.begin() != "..";
  return (inside ? relative : path).string();
}

std::string Course::command(std::string_view arguments) const {
  std::string text = shown(layout_.build / "course");
  if (!arguments.empty()) text += " " + std::string(arguments);
  return text;
}

std::string Course::good(std::string_view text) const {
  return color_ ? "\033[32m" + std::string(text) + "\033[0m" : std::string(text);
}

std::string Course::bad(std::string_view text) const {
  return color_ ? "\033[31m" + std::string(text) + "\033[0m" : std::string(text);
}

void print_next_step(Course& course) {
  const Catalog& catalog = course.catalog();
  const engine::notebook::Progress progress = course.progress();
  const std::optional<Step> next = next_step(catalog, progress);
  std::ostream& out = course.out();  // commands go on lines of their own, whole, to be copied
  if (!next) {
    course.say(
        "You have finished the course: every lesson verified, every lab passed, every quiz passed.");
    return;
  }
  switch (next->kind) {
    case StepKind::Lesson: {
      // A lesson in sections that is partly verified: its first section not verified yet.
      const LessonInfo* lesson = catalog.lesson(next->id);
      const std::vector<const LessonInfo*> programs = lesson->programs();
      const auto begun = std::any_of(programs.begin(), programs.end(), [&](const LessonInfo* p) {
        return lesson_verified(*p, progress);
      });
      for (const LessonInfo* program : programs) {
        if (!begun || lesson_verified(*program, progress)) continue;
        lesson = program;
        break;
      }
      course.say("Next: lesson " + lesson->number + " · " + lesson->title +
                 ". Read it and run it:");
      out << "  " << course.command("run " + lesson->number) << '\n';
      return;
    }
    case StepKind::Lab: {
      const LabInfo& lab = *catalog.lab(next->id);
      const auto todos = open_todos(lab);
      // The file of the first open TODO: lab.cpp, or the first kernel of lab 9 still to write.
      const std::filesystem::path file =
          todos.empty() ? lab.learner_file(lab.files.front()) : todos.front().file;
      std::string edit =
          "Next: lab " + lab.number + " · " + lab.title + ". Edit " + course.shown(file);
      if (!todos.empty()) {
        edit += " (" + std::to_string(todos.size()) + (todos.size() == 1 ? " TODO" : " TODOs") +
                " open, the first on line " + std::to_string(todos.front().todo.line) + ")";
      }
      course.say(edit + ", then verify it:");
      out << "  " << course.command("verify " + lab.number) << '\n';
      course.say("or have it verified on every save:");
      out << "  " << course.command("watch") << '\n';
      return;
    }
    case StepKind::Quiz:
      break;
  }
  const QuizInfo& quiz = *catalog.quiz(next->id);
  course.say("Next: the quiz " + quiz.name + " · " + quiz.title + ":");
  out << "  " << course.command("quiz take " + quiz.name) << '\n';
}

}  // namespace front_door
