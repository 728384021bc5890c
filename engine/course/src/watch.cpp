// `course watch`: verify the lab or lesson the learner is editing each time they save it, and
// say what comes next once it passes. Starts by verifying the step the learner is on.

#include <chrono>
#include <ctime>
#include <ostream>

#include "course.h"
#include "file_watch.h"
#include "subcommand.h"
#include "verification.h"

namespace front_door {
namespace {

namespace fs = std::filesystem;

struct Watched {
  fs::path file;
  Step step;
};

std::vector<Watched> watched_files(const Course& course) {
  std::vector<Watched> watched;
  for (const LabInfo& lab : course.catalog().labs()) {
    for (const fs::path& file : lab.learner_files())
      watched.push_back({file, {StepKind::Lab, lab.number}});
  }
  // A section verifies itself; the file its sections share verifies them all.
  for (const LessonInfo& lesson : course.catalog().lessons()) {
    watched.push_back({lesson.file, {StepKind::Lesson, lesson.number}});
    for (const LessonInfo& section : lesson.sections)
      watched.push_back({section.file, {StepKind::Lesson, section.number}});
  }
  return watched;
}

Verdict verify_step(Course& course, const Step& step) {
  if (step.kind == StepKind::Lab) return verify_lab(course, *course.catalog().lab(step.id));
  return verify_lesson(course, *course.catalog().lesson(step.id));
}

void start_screen(Course& course) {
  if (course.color())
    course.out() << "\033[2J\033[H";  // a terminal: the last verdict replaces the one before
  const std::time_t now = std::time(nullptr);
  char clock[16];
  std::strftime(clock, sizeof clock, "%H:%M:%S", std::localtime(&now));
  course.out() << "[" << clock << "] ";
}

// What a save of `w` shows: its verdict and how long it took, or, for a file that is gone, that
// the watch goes on until it is back.
void verify_saved(Course& course, const Watched& w) {
  start_screen(course);
  if (!fs::exists(w.file)) {  // deleted, or renamed away
    course.say(course.bad("✘ " + course.shown(w.file) + " is gone (deleted or moved away).") +
               " Watching for it to come back" +
               (w.step.kind == StepKind::Lab
                    ? "; " + course.command("reset " + w.step.id) + " puts the starter back."
                    : "."));
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const Verdict verdict = verify_step(course, w.step);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  course.say("(verified " + course.shown(w.file) + " in " +
             std::to_string(static_cast<int>(took.count() * 1000)) + " ms)");
  if (verdict == Verdict::Passed) print_next_step(course);
}

int watch(Course& course, const Arguments& args) {
  if (!args.empty()) return usage_error(course, "watch", "takes no arguments");
  if (!time_limit_usable(course, "watch")) return kUsageError;
  const std::vector<Watched> watched = watched_files(course);
  std::vector<fs::path> files;
  for (const Watched& w : watched) files.push_back(w.file);
  FileWatch watch(files);

  auto footer = [&] {
    course.out() << '\n';
    course.say(
        "Watching your labs (labs/*/lab.cpp, and lab 9's labs/09_metal_puzzles/*.metal) and the "
        "lessons (lessons/): save one to verify it. Ctrl-C stops.");
    course.out().flush();
  };
  const std::optional<Step> next = next_step(course.catalog(), course.progress());
  start_screen(course);
  if (next && next->kind != StepKind::Quiz) {
    if (verify_step(course, *next) == Verdict::Passed) print_next_step(course);
  } else {
    print_next_step(course);
  }
  footer();
  for (;;) {
    for (const fs::path& file : watch.wait(std::chrono::milliseconds(-1))) {
      for (const Watched& w : watched) {
        if (w.file == file) verify_saved(course, w);
      }
    }
    footer();
  }
}

}  // namespace

const Subcommand kWatchCommand{
    .name = "watch",
    .usage = "watch",
    .summary = "verify the lab or lesson you are editing each time you save it",
    .run = watch};

}  // namespace front_door
