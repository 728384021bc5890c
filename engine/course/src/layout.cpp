// The layout CMake compiled in (TUTOR_* definitions, set in CMakeLists.txt).

#include "layout.h"

namespace front_door {

Layout built_layout() {
  return {.top = TUTOR_SOURCE_DIR,
          .build = TUTOR_BINARY_DIR,
          .cmake = TUTOR_CMAKE_COMMAND,
          .ninja = TUTOR_NINJA,
          .lesson_programs = TUTOR_LESSON_PROGRAMS,
          .lab_programs = TUTOR_LAB_PROGRAMS};
}

}  // namespace front_door
