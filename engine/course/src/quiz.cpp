// `course quiz ...`: the quizzes, through the quiz runner itself (quizzes/runner), so both
// commands share one implementation: `course quiz take lesson03` is `quiz take lesson03`.

#include <iostream>

#include "commands.h"
#include "course.h"
#include "subcommand.h"

namespace front_door {
namespace {

int quiz(Course& course, const Arguments& args) {
  const Layout& layout = course.layout();
  const quiz::Paths paths{layout.top / "quizzes" / "banks", layout.top / "lessons",
                          layout.lesson_programs, course.command("quiz")};
  return quiz::run(args.empty() ? Arguments{"list"} : args, course.in(), course.out(), course.err(),
                   paths, course.width());
}

}  // namespace

const Subcommand kQuizCommand{
    .name = "quiz",
    .usage = "quiz [...]",
    .summary = "the quizzes: quiz list, quiz take lesson03, quiz take mastery, quiz --help",
    .run = quiz,
    .forwards_help = true};

}  // namespace front_door
