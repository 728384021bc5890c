# Included by CTest (a TEST_INCLUDE_FILES script): turns the listing a lesson executable wrote
# after its last build (lessonNN --list-tests: "cell" or "cell machine" per line) into one test
# per cell and machine. Reading it here, inside CTest, costs no process of its own.
#   EXECUTABLE  the lesson program    PREFIX  lesson.NN    LISTING  the file it wrote
#   FIXTURE     the fixture every test requires (cmake/TutorLearnerState.cmake)

if(NOT EXISTS "${LISTING}")
  add_test("${PREFIX}/NOT_BUILT" "${PREFIX}/NOT_BUILT")
  return()
endif()
file(STRINGS "${LISTING}" lines)
foreach(line IN LISTS lines)
  separate_arguments(fields UNIX_COMMAND "${line}")
  list(GET fields 0 cell)
  list(LENGTH fields count)
  if(count GREATER 1)
    list(GET fields 1 machine)
    set(name "${PREFIX}/${cell}@${machine}")
    add_test("${name}" "${EXECUTABLE}" --verify --cell "${cell}" --machine "${machine}")
  else()
    set(name "${PREFIX}/${cell}")
    add_test("${name}" "${EXECUTABLE}" --verify --cell "${cell}")
  endif()
  set_tests_properties("${name}" PROPERTIES LABELS "lessons;${PREFIX}" FIXTURES_REQUIRED "${FIXTURE}")
endforeach()
