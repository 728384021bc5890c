// `course` alone, or `course status`: how far the learner is, and the one next step.

#include <ostream>
#include <string>

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
  course.say("MPS & Metal for ML on Mac · lessons " + std::to_string(lessons) + " of " +
             std::to_string(catalog.lessons().size()) + " verified · labs " + std::to_string(labs) +
             " of " + std::to_string(catalog.labs().size()) + " passed · quizzes " +
             std::to_string(quizzes) + " of " + std::to_string(catalog.quizzes().size()) +
             " passed");
  print_next_step(course);
  course.say("Everything, with its state: " + course.command("list"));
  course.say("All commands: " + course.command("--help"));
  return 0;
}

}  // namespace

const Subcommand kStatusCommand{.name = "status",
                                .usage = "[status]",
                                .summary = "where you are, and the one next thing to do",
                                .run = status};

}  // namespace front_door
