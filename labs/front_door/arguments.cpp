// Numbers on the command line: one or two digits, naming a lesson or a lab that exists.

#include "arguments.h"

#include "course.h"

namespace front_door {
namespace {

template <typename Items>
std::string numbers_of(const Items& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item.number;
  return text;
}

}  // namespace

const LessonInfo* lesson_argument(Course& course, std::string_view subcommand, const std::string& text) {
  const auto number = two_digits(text);
  const LessonInfo* lesson = number ? course.catalog().lesson(*number) : nullptr;
  if (lesson == nullptr) {
    usage_error(course, subcommand, "'" + text + "' is not a lesson's number; lessons: " +
                                        numbers_of(course.catalog().lessons()));
  }
  return lesson;
}

const LabInfo* lab_argument(Course& course, std::string_view subcommand, const std::string& text) {
  const auto number = two_digits(text);
  const LabInfo* lab = number ? course.catalog().lab(*number) : nullptr;
  if (lab == nullptr) {
    usage_error(course, subcommand, "'" + text + "' is not a lab's number; labs: " +
                                        numbers_of(course.catalog().labs()));
  }
  return lab;
}

const LabInfo* lab_argument_or_current(Course& course, std::string_view subcommand, const Arguments& args) {
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
