// The course command: the learner's front door to the lessons, labs and quizzes. See
// subcommand.h for how subcommands are added, and README.md for what each does.

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "course.h"
#include "subcommand.h"

int main(int argc, char** argv) {
  const char* no_color = std::getenv("NO_COLOR");  // no-color.org: set and non-empty
  const bool color = isatty(STDOUT_FILENO) != 0 && (no_color == nullptr || *no_color == '\0');
  try {
    front_door::Course course(front_door::built_layout(), std::cin, std::cout, std::cerr, color);
    return front_door::run_course(course, std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "course: " << e.what() << '\n';
    return front_door::kFailed;
  }
}
