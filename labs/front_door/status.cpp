// `course` alone, or `course status`: how far the learner is, and the one next step.

#include <ostream>

#include "course.h"
#include "subcommand.h"

namespace front_door {
namespace {

int status(Course& course, const Arguments& args) {
  if (!args.empty()) return usage_error(course, "status", "takes no arguments");
  const Catalog& catalog = course.catalog();
  const engine::notebook::Progress progress = course.progress();
  int lessons = 0, labs = 0, quizzes = 0;
  for (const Step& step : catalog.path()) {
    if (!is_done(step, catalog, progress)) continue;
    (step.kind == StepKind::Lesson ? lessons : step.kind == StepKind::Lab ? labs : quizzes) += 1;
  }
  course.out() << "MPS & Metal for ML on Mac · lessons " << lessons << " of " << catalog.lessons().size()
               << " verified · labs " << labs << " of " << catalog.labs().size() << " passed · quizzes "
               << quizzes << " of " << catalog.quizzes().size() << " passed\n";
  print_next_step(course);
  course.out() << "Everything, with its state: " << course.command("list") << "    All commands: "
               << course.command("--help") << '\n';
  return 0;
}

const Registration status_command({.name = "status",
                                   .usage = "[status]",
                                   .summary = "where you are, and the one next thing to do",
                                   .order = 10,
                                   .run = status});

}  // namespace
}  // namespace front_door
