# The code's format (.clang-format): the target `format` applies it, `check_format` (which CI
# builds) fails on any file that differs. Lessons and the labs' exercise files are formatted by
# hand, as prose is: their cells, documented outputs and decoy blocks depend on their exact lines,
# so only the machinery is listed. The check needs clang-format 14, Debian 12's (./setup
# --with-test-tools installs it): other releases break some lines differently.

find_program(TUTOR_CLANG_FORMAT NAMES clang-format-14 clang-format)
file(GLOB_RECURSE TUTOR_FORMATTED_SOURCES CONFIGURE_DEPENDS
  "${PROJECT_SOURCE_DIR}/engine/*.cpp" "${PROJECT_SOURCE_DIR}/engine/*.h"
  "${PROJECT_SOURCE_DIR}/site/*.cpp" "${PROJECT_SOURCE_DIR}/site/*.h"
  "${PROJECT_SOURCE_DIR}/quizzes/*.cpp" "${PROJECT_SOURCE_DIR}/quizzes/*.h"
  "${PROJECT_SOURCE_DIR}/labs/harness/*.cpp" "${PROJECT_SOURCE_DIR}/labs/harness/*.h"
  "${PROJECT_SOURCE_DIR}/tests/*.cpp" "${PROJECT_SOURCE_DIR}/tests/*.h")
list(FILTER TUTOR_FORMATTED_SOURCES EXCLUDE REGEX "/tests/.*/(fixtures|corpus)/")

if(TUTOR_CLANG_FORMAT)
  add_custom_target(format
    COMMAND "${TUTOR_CLANG_FORMAT}" -i ${TUTOR_FORMATTED_SOURCES}
    COMMENT "Formatting the engine, the site, the quizzes' programs, the labs' harness and the tests"
    VERBATIM)
  add_custom_target(check_format
    COMMAND "${TUTOR_CLANG_FORMAT}" --dry-run --Werror ${TUTOR_FORMATTED_SOURCES}
    COMMENT "Checking the format of the engine, the site, the quizzes' programs, the labs' harness and the tests"
    VERBATIM)
endif()
