// The subcommand table and the dispatch of `course args...`.

#include "subcommand.h"

#include <algorithm>
#include <cctype>
#include <ostream>

#include "course.h"
#include "engine/notebook/spelling.h"
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

// The subcommand `name` is a slip of ("hints", "verfy", "Run"), or null: one edit away, or two
// where both are longer than four letters ("test" is not a slip of "reset").
const Subcommand* close_subcommand(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const Subcommand* closest = nullptr;
  std::size_t best = 0;
  for (const Subcommand* s : subcommands()) {
    const std::size_t distance = engine::notebook::spelling_distance(lower, s->name);
    const std::size_t allowed = std::min(lower.size(), s->name.size()) > 4 ? 2 : 1;
    if (distance <= allowed && (closest == nullptr || distance < best)) {
      closest = s;
      best = distance;
    }
  }
  return closest;
}

// `course NAME ...` with no subcommand NAME: the one it is close to, as the command to copy
// (`before` and `after` the name), else the whole help.
int no_subcommand(Course& course, std::string_view who, const std::string& name,
                  const std::string& before, const std::string& after) {
  using engine::notebook::wrap;
  const std::string unknown = std::string(who) + ": no subcommand '" + name + "'.";
  const Subcommand* close = close_subcommand(name);
  if (close == nullptr) {
    course.err() << wrap(unknown, course.width());
    print_help(course.err(), course.width());
    return kUsageError;
  }
  course.err() << wrap(unknown + " Did you mean " + std::string(close->name) + "?", course.width())
               << "  " << course.command(before + std::string(close->name) + after) << '\n'
               << wrap(course.command("--help") + " lists every subcommand.", course.width());
  return kUsageError;
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
    if (find_subcommand(args[1]) == nullptr)
      return no_subcommand(course, "course help", args[1], "help ", "");
    return run_course(course, {args[1], "--help"});
  }
  if (name == "--help" || name == "-h" || name == "help") {
    print_help(course.out(), course.width());
    return 0;
  }
  const Subcommand* subcommand = find_subcommand(name);
  if (subcommand == nullptr) {
    std::string after;
    for (std::size_t i = 1; i < args.size(); ++i) after += " " + args[i];
    return no_subcommand(course, "course", name, "", after);
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
