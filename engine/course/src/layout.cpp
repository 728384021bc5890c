// The layout CMake compiled in (TUTOR_* definitions, set in CMakeLists.txt).

#include "layout.h"

#include <sstream>

namespace front_door {
namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

}  // namespace

Layout built_layout() {
  return {.top = TUTOR_SOURCE_DIR,
          .build = TUTOR_BINARY_DIR,
          .cmake = TUTOR_CMAKE_COMMAND,
          .ninja = TUTOR_NINJA,
          .lesson_programs = TUTOR_LESSON_PROGRAMS,
          .lab_programs = TUTOR_LAB_PROGRAMS,
          .lessons = split(TUTOR_LESSONS),
          .labs = split(TUTOR_LABS)};
}

}  // namespace front_door
