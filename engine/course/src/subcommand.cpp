// The subcommand table and the dispatch of `course args...`.

#include "subcommand.h"

#include <algorithm>
#include <ostream>

#include "course.h"
#include "engine/notebook/terminal_text.h"
#include "engine/notebook/text_diff.h"

namespace front_door {
namespace {

// The subcommands in a column beside their summaries, or, where the terminal is too narrow for
// that, each summary under its subcommand.
void print_help(std::ostream& out, std::size_t columns) {
  using engine::notebook::wrap;
  out << wrap("course: the front door of the course. Lessons, labs and quizzes, and where you are.",
              columns)
      << '\n';
  const std::size_t lead = std::string_view("  course ").size(), gap = 2;
  std::size_t usage_width = 0, line_width = 0;
  for (const Subcommand* s : subcommands()) usage_width = std::max(usage_width, s->usage.size());
  for (const Subcommand* s : subcommands())
    line_width = std::max(line_width, lead + usage_width + gap + s->summary.size());
  for (const Subcommand* subcommand : subcommands()) {
    const Subcommand& s = *subcommand;
    if (line_width <= columns) {
      out << "  course " << s.usage << std::string(usage_width - s.usage.size() + gap, ' ')
          << s.summary << '\n';
    } else {
      // A long usage goes on under its own indent, as its summary does.
      out << wrap("course " + std::string(s.usage), columns, "  ", "          ")
          << wrap(s.summary, columns, "      ", "      ");
    }
  }
  out << '\n'
      << wrap(
             "NN is a number: a lesson's for run and twins, a lab's for verify, hint and reset. "
             "course help SUBCOMMAND (or course SUBCOMMAND --help) tells more about one.",
             columns);
}

}  // namespace

const std::vector<const Subcommand*>& subcommands() {
  static const std::vector<const Subcommand*> table{
      &kStatusCommand, &kListCommand,  &kRunCommand,  &kTwinsCommand, &kVerifyCommand,
      &kHintCommand,   &kResetCommand, &kPlanCommand, &kWatchCommand, &kQuizCommand};
  return table;
}

const Subcommand* find_subcommand(std::string_view name) {
  for (const Subcommand* s : subcommands()) {
    if (s->name == name) return s;
  }
  return nullptr;
}

int usage_error(Course& course, std::string_view subcommand, const std::string& message) {
  course.err() << "course " << subcommand << ": " << message << '\n';
  if (const Subcommand* s = find_subcommand(subcommand))
    course.err() << "usage: course " << s->usage << '\n';
  return kUsageError;
}

int run_course(Course& course, const std::vector<std::string>& args) {
  if (args.empty()) return find_subcommand("status")->run(course, {});
  const std::string& name = args.front();
  if (name == "help" && args.size() == 2) {  // course help plan: the same as course plan --help
    if (find_subcommand(args[1]) == nullptr) {
      course.err() << "course help: no subcommand '" << args[1] << "'.\n";
      print_help(course.err(), course.width());
      return kUsageError;
    }
    return run_course(course, {args[1], "--help"});
  }
  if (name == "--help" || name == "-h" || name == "help") {
    print_help(course.out(), course.width());
    return 0;
  }
  const Subcommand* subcommand = find_subcommand(name);
  if (subcommand == nullptr) {
    course.err() << "course: no subcommand '" << name << "'.\n";
    print_help(course.err(), course.width());
    return kUsageError;
  }
  if (!subcommand->forwards_help && args.size() > 1 && (args[1] == "--help" || args[1] == "-h")) {
    course.out() << "usage: course " << subcommand->usage << '\n'
                 << engine::notebook::wrap(subcommand->summary, course.width(), "  ", "  ");
    if (!subcommand->details.empty()) course.out() << '\n';
    for (const std::string& line : engine::notebook::split_lines(subcommand->details)) {
      course.out() << (line.starts_with("  ") ? line + '\n'
                                              : engine::notebook::wrap(line, course.width()));
    }
    return 0;
  }
  return subcommand->run(course, Arguments(args.begin() + 1, args.end()));
}

}  // namespace front_door
