// `course run NN [options]`: lesson NN as a notebook, built first so an edit shows. Options after
// the number go to the lesson (--machine m1-8gb, --cell NAME, --trace FILE, --help).

#include <ostream>

#include "arguments.h"
#include "course.h"
#include "engine/notebook/child_process.h"
#include "verification.h"

namespace front_door {
namespace {

int run(Course& course, const Arguments& args) {
  if (args.empty()) return usage_error(course, "run", "which lesson? Give its number");
  const LessonInfo* lesson = lesson_argument(course, "run", args.front());
  if (lesson == nullptr) return kUsageError;
  const std::string target = "lesson" + lesson->number;
  if (!build_or_explain(course, target, course.layout().top / "lessons" / (lesson->name + ".cpp")))
    return kFailed;
  std::vector<std::string> command{(course.layout().lesson_programs / target).string()};
  command.insert(command.end(), args.begin() + 1, args.end());
  course.out().flush();
  const int status = engine::notebook::run_attached(command);
  // The notebook showed the crash under its cell; this says what ended the program. A cell that
  // never ended has said so itself (status 124).
  if (const std::string signal = engine::notebook::signal_ended(status); !signal.empty()) {
    course.out() << course.bad("✘ Lesson " + lesson->number + " crashed (" + signal + ").") << '\n';
  }
  return status;
}

}  // namespace

const Subcommand kRunCommand{
    .name = "run",
    .usage = "run NN [options]",
    .summary = "lesson NN as a notebook; options go to the lesson (--machine m1-8gb)",
    .run = run};

}  // namespace front_door
