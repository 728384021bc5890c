# Script mode (cmake -P), run after a lesson executable is built. Asks the executable which
# cells it verifies on which machines and writes the matching add_test() calls.
#   -D EXECUTABLE=path  -D PREFIX=lesson.NN  -D OUTPUT=file.cmake

execute_process(
  COMMAND "${EXECUTABLE}" --list-tests
  OUTPUT_VARIABLE listing
  ERROR_VARIABLE problem
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${problem}")
endif()

set(script "# Generated from ${EXECUTABLE} --list-tests; do not edit.\n")
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  separate_arguments(fields UNIX_COMMAND "${line}")
  list(GET fields 0 cell)
  list(LENGTH fields count)
  if(count GREATER 1)
    list(GET fields 1 machine)
    set(name "${PREFIX}/${cell}@${machine}")
    set(args "--verify --cell ${cell} --machine ${machine}")
  else()
    set(name "${PREFIX}/${cell}")
    set(args "--verify --cell ${cell}")
  endif()
  string(APPEND script
    "add_test([==[${name}]==] \"${EXECUTABLE}\" ${args})\n"
    "set_tests_properties([==[${name}]==] PROPERTIES LABELS \"lessons;${PREFIX}\")\n")
endforeach()
file(WRITE "${OUTPUT}" "${script}")
