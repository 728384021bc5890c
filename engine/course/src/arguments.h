#pragma once
// Reading a lesson's or a lab's number from the command line. Each returns null after reporting
// what is wrong (and which numbers exist) as a usage error.

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

}  // namespace front_door
