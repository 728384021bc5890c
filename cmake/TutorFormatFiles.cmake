# Runs clang-format over the machinery's sources, listed when it runs (not when the build is
# configured), so that no build pays for re-checking the folders and a new file is formatted too.
#   cmake -D CLANG_FORMAT=PATH -D MODE=fix|check -D ROOT=SOURCE_DIR -P TutorFormatFiles.cmake
# Lessons and the labs' exercise files are formatted by hand (TutorFormat.cmake says why).

file(GLOB_RECURSE sources
  "${ROOT}/engine/*.cpp" "${ROOT}/engine/*.h"
  "${ROOT}/site/*.cpp" "${ROOT}/site/*.h"
  "${ROOT}/quizzes/*.cpp" "${ROOT}/quizzes/*.h"
  "${ROOT}/labs/harness/*.cpp" "${ROOT}/labs/harness/*.h"
  "${ROOT}/tests/*.cpp" "${ROOT}/tests/*.h")
list(FILTER sources EXCLUDE REGEX "/tests/.*/(fixtures|corpus)/")
list(SORT sources)

if(MODE STREQUAL "fix")
  set(arguments -i)
elseif(MODE STREQUAL "check")
  set(arguments --dry-run --Werror)
else()
  message(FATAL_ERROR "MODE must be fix or check, not '${MODE}'")
endif()
execute_process(COMMAND "${CLANG_FORMAT}" ${arguments} ${sources} COMMAND_ERROR_IS_FATAL ANY)
