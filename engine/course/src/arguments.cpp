// Numbers on the command line: one or two digits, naming a lesson or a lab that exists.

#include "arguments.h"

#include "course.h"

namespace front_door {
namespace {

// The item of `items` whose number `text` gives ("5" or "05"), or null after a usage error that
// lists the numbers there are.
template <typename Info>
const Info* numbered(Course& course, std::string_view subcommand, const std::string& text,
                     const std::vector<Info>& items, const std::string& kind) {
  const auto number = two_digits(text);
  for (const Info& item : items) {
    if (number && item.number == *number) return &item;
  }
  std::string numbers;
  for (const Info& item : items) numbers += (numbers.empty() ? "" : ", ") + item.number;
  usage_error(course, subcommand,
              "'" + text + "' is not a " + kind + "'s number; " + kind + "s: " + numbers);
  return nullptr;
}

}  // namespace

const LessonInfo* lesson_argument(Course& course, std::string_view subcommand,
                                  const std::string& text) {
  return numbered(course, subcommand, text, course.catalog().lessons(), "lesson");
}

const LabInfo* lab_argument(Course& course, std::string_view subcommand, const std::string& text) {
  return numbered(course, subcommand, text, course.catalog().labs(), "lab");
}

const LabInfo* lab_argument_or_current(Course& course, std::string_view subcommand,
                                       const Arguments& args) {
  if (args.size() > 1) {
    usage_error(course, subcommand, "takes at most one lab number");
    return nullptr;
  }
  if (!args.empty()) return lab_argument(course, subcommand, args.front());
  const LabInfo* lab = current_lab(course.catalog(), course.progress());
  if (lab == nullptr) {
    usage_error(course, subcommand, "every lab has passed; name the one you mean");
  }
  return lab;
}

}  // namespace front_door
