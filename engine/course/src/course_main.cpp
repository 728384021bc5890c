// The command line of the course command: colour when a terminal wants it, the layout it was
// built for, and the subcommand table.

#include "course_main.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "course.h"
#include "subcommand.h"

namespace front_door {

int course_main(int argc, char** argv) {
  const char* no_color = std::getenv("NO_COLOR");  // no-color.org: set and non-empty
  const bool color = isatty(STDOUT_FILENO) != 0 && (no_color == nullptr || *no_color == '\0');
  try {
    Course course(built_layout(), std::cin, std::cout, std::cerr, color);
    return run_course(course, std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "course: " << e.what() << '\n';
    return kFailed;
  }
}

}  // namespace front_door
