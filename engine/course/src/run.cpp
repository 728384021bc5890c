// `course run NN [options]`: lesson NN as a notebook, built first so an edit shows; a lesson in
// sections runs each in order, and `course run NN.S` one of them. Options after the number go to
// the lesson (--machine m1-8gb, --cell NAME, --trace FILE, --help).

#include <algorithm>
#include <ostream>

#include "arguments.h"
#include "course.h"
#include "engine/notebook/child_process.h"
#include "engine/notebook/lesson_names.h"
#include "engine/notebook/lesson_source.h"
#include "verification.h"

namespace front_door {
namespace {

// The programs of `lesson` that the options ask for: with --cell NAME, the section that has
// that cell (the lesson program names an unknown cell itself).
std::vector<const LessonInfo*> programs_to_run(const LessonInfo& lesson, const Arguments& args) {
  const std::vector<const LessonInfo*> programs = lesson.programs();
  const auto cell = std::find(args.begin(), args.end(), "--cell");
  if (programs.size() == 1 || cell == args.end() || cell + 1 == args.end()) return programs;
  for (const LessonInfo* program : programs) {
    try {
      if (engine::notebook::load_lesson(program->file.string()).find(*(cell + 1)) != nullptr)
        return {program};
    } catch (const engine::notebook::FormatError&) {
      return {program};  // which says what is wrong when it is built
    }
  }
  return programs;
}

int run(Course& course, const Arguments& args) {
  if (args.empty()) return usage_error(course, "run", "which lesson? Give its number");
  const LessonInfo* lesson = lesson_argument(course, "run", args.front());
  if (lesson == nullptr) return kUsageError;
  // A lesson in sections runs them in order, as one notebook, up to the first that fails.
  const std::vector<const LessonInfo*> programs = programs_to_run(*lesson, args);
  for (const LessonInfo* program : programs) {
    if (program != programs.front()) course.out() << '\n';
    const std::string target = engine::notebook::program_target(program->number);
    if (!build_or_explain(course, target, program->file)) return kFailed;
    std::vector<std::string> command{(course.layout().lesson_programs / target).string()};
    command.insert(command.end(), args.begin() + 1, args.end());
    course.out().flush();
    const int status = engine::notebook::run_attached(command);
    // The notebook showed the crash under its cell; this says what ended the program. A cell
    // that never ended has said so itself (status 124).
    if (const std::string signal = engine::notebook::signal_ended(status); !signal.empty()) {
      course.out() << course.bad("✘ Lesson " + program->number + " crashed (" + signal + ").")
                   << '\n';
    }
    if (status != 0) return status;
  }
  return 0;
}

}  // namespace

const Subcommand kRunCommand{
    .name = "run",
    .usage = "run NN[.S] [options]",
    .summary =
        "lesson NN (or its section NN.S) as a notebook; options go to the lesson (--machine m1-8gb)",
    .run = run};

}  // namespace front_door
