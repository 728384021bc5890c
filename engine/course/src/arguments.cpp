// Numbers on the command line: one or two digits, naming a lesson or a lab that exists; a
// lesson's section adds its digit ("8.2"). Options with a value, written either way.

#include "arguments.h"

#include <algorithm>

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
  const auto dot = text.find('.');
  const auto lesson_number = two_digits(std::string_view(text).substr(0, dot));
  const LessonInfo* lesson = lesson_number ? course.catalog().lesson(*lesson_number) : nullptr;
  if (dot == std::string::npos || lesson == nullptr)
    return numbered(course, subcommand, text, course.catalog().lessons(), "lesson");
  if (const auto number = lesson_or_section(text)) {
    if (const LessonInfo* section = course.catalog().lesson(*number)) return section;
  }
  if (lesson->sections.empty()) {
    usage_error(
        course, subcommand,
        "lesson " + lesson->number + " has no sections; name the whole lesson, " + lesson->number);
    return nullptr;
  }
  std::string numbers;
  for (const LessonInfo& section : lesson->sections)
    numbers += (numbers.empty() ? "" : ", ") + section.number;
  usage_error(
      course, subcommand,
      "'" + text + "' is not a section of lesson " + lesson->number + "; its sections: " + numbers);
  return nullptr;
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

Arguments split_option_values(const Arguments& args,
                              std::initializer_list<std::string_view> with_values) {
  Arguments split;
  for (const std::string& arg : args) {
    const std::size_t equals = arg.find('=');
    const std::string_view option = std::string_view(arg).substr(0, equals);
    if (equals != std::string::npos &&
        std::find(with_values.begin(), with_values.end(), option) != with_values.end()) {
      split.emplace_back(option);
      split.push_back(arg.substr(equals + 1));
    } else {
      split.push_back(arg);
    }
  }
  return split;
}

}  // namespace front_door
