# tutor_add_lesson(NN_topic): builds lessons/NN_topic.cpp into the executable lessonNN, or, for
# a lesson in sections (the folder lessons/NN_topic/ with its shared.h: lesson_names.h), each
# section NN_S_topic.cpp into lessonNN_S. It registers one CTest test per code cell and
# documented machine, named like lesson.02/sanity_check and lesson.02/sanity_check@linux-x86_64
# (a section's: lesson.08.2/...), plus lesson.02/notebook, which runs the whole program the way a
# learner does.
#
# The cell tests are discovered after each build by asking the executable itself
# (lessonNN --list-tests), the way doctest_discover_tests and gtest_discover_tests work: the
# one parser of the lesson format decides what a cell is, and a malformed lesson fails the
# build with the file and line of the problem. CTest turns the listing into tests when it runs.

set(TUTOR_CELL_TESTS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/TutorCellTests.cmake")

function(tutor_add_lesson name)
  if(NOT name MATCHES "^([0-9][0-9])_[a-z0-9_]+$")
    message(FATAL_ERROR "lesson '${name}': expected NN_topic, for example 02_device_checks")
  endif()
  set(number "${CMAKE_MATCH_1}")
  if(NOT IS_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/${name}")
    tutor_add_lesson_program("${name}.cpp" "${number}")
    return()
  endif()
  if(NOT EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${name}/shared.h")
    message(FATAL_ERROR "lesson '${name}': a lesson in sections needs its ${name}/shared.h")
  endif()
  # The sections are the folder's files, as the course catalog reads them; a new one reconfigures.
  file(GLOB sections RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}" CONFIGURE_DEPENDS
       "${CMAKE_CURRENT_SOURCE_DIR}/${name}/${number}_[1-9]_*.cpp")
  if(NOT sections)
    message(FATAL_ERROR "lesson '${name}': no section ${name}/${number}_1_topic.cpp")
  endif()
  list(SORT sections)
  foreach(section IN LISTS sections)
    string(REGEX MATCH "/${number}_([1-9])_" ignored "${section}")
    tutor_add_lesson_program("${section}" "${number}.${CMAKE_MATCH_1}")
  endforeach()
endfunction()

# One lesson program: `source` (relative to this folder) built into the program of `number`
# ("02": lesson02; a section's "08.2": lesson08_2).
function(tutor_add_lesson_program source number)
  string(REPLACE "." "_" suffix "${number}")
  set(target "lesson${suffix}")
  set(prefix "lesson.${number}")

  add_executable(${target} "${source}")
  target_link_libraries(${target} PRIVATE
    tutor::notebook tutor::lesson_runtime tutor::warnings tutor::lesson_codegen tutor::fast_link)
  if(TARGET tutor_lesson_pch)
    target_precompile_headers(${target} REUSE_FROM tutor_lesson_pch)
  endif()

  # After each build the program lists its cells (written beside, then moved, so that a failed
  # listing never leaves half a list); CTest reads the list through TutorCellTests.cmake.
  set(listing "${CMAKE_CURRENT_BINARY_DIR}/${target}_cells.txt")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND sh -c "\"$0\" --list-tests > \"$1.new\" && mv \"$1.new\" \"$1\"" $<TARGET_FILE:${target}> "${listing}"
    BYPRODUCTS "${listing}"
    VERBATIM)

  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake")
  string(CONCAT include_script
    "set(EXECUTABLE [==[$<TARGET_FILE:${target}>]==])\n"
    "set(PREFIX ${prefix})\n"
    "set(LISTING [==[${listing}]==])\n"
    "set(FIXTURE ${TUTOR_LEARNER_STATE_FIXTURE})\n"
    "include([==[${TUTOR_CELL_TESTS_SCRIPT}]==])\n")
  file(GENERATE OUTPUT "${include_file}" CONTENT "${include_script}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")

  set_property(GLOBAL APPEND PROPERTY TUTOR_LESSON_TARGETS ${target})
  set_property(GLOBAL APPEND PROPERTY TUTOR_LESSON_SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/${source}")

  add_test(NAME "${prefix}/notebook" COMMAND ${target})
  set_tests_properties("${prefix}/notebook" PROPERTIES
    LABELS "lessons;${prefix}" ENVIRONMENT "NO_COLOR=1;${TUTOR_TEST_PROGRESS_ENV}")
endfunction()

# One precompiled header shared by every lesson: doctest's test macros, fmt and the engine's
# API. Lessons reuse it, so they must compile with exactly its flags (hence the same links).
# file(CONFIGURE) writes the source only when its text changes, so a reconfigure rebuilds nothing.
function(tutor_add_lesson_pch)
  file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/lesson_pch.cpp" @ONLY
    CONTENT "// owns the lessons' precompiled header\n")
  add_library(tutor_lesson_pch OBJECT "${CMAKE_CURRENT_BINARY_DIR}/lesson_pch.cpp")
  target_link_libraries(tutor_lesson_pch PRIVATE
    tutor::notebook tutor::lesson_runtime tutor::warnings tutor::lesson_codegen)
  target_precompile_headers(tutor_lesson_pch PRIVATE <engine/notebook/lesson.h>)
endfunction()
