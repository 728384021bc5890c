#pragma once
// Reading a lesson's or a lab's number from the command line. Each returns null after reporting
// what is wrong (and which numbers exist) as a usage error.

#include <initializer_list>
#include <string>
#include <string_view>

#include "catalog.h"
#include "subcommand.h"

namespace front_door {

const LessonInfo* lesson_argument(Course& course, std::string_view subcommand,
                                  const std::string& text);
const LabInfo* lab_argument(Course& course, std::string_view subcommand, const std::string& text);
// The lab `args` names, or with no argument the lab the learner is on (the first not passed).
const LabInfo* lab_argument_or_current(Course& course, std::string_view subcommand,
                                       const Arguments& args);

// `args` with each `--option=value` of an option in `with_values` as the two arguments
// `--option value`, so a subcommand takes both spellings, as the lessons do.
Arguments split_option_values(const Arguments& args,
                              std::initializer_list<std::string_view> with_values);

}  // namespace front_door
