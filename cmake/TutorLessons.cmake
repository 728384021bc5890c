# tutor_add_lesson(NN_topic [SECTIONS NN_1_topic ...]): builds lessons/NN_topic.cpp into the
# executable lessonNN, or, for a lesson in sections (the folder lessons/NN_topic/ with its
# shared.h: lesson_names.h), each listed section NN_S_topic.cpp into lessonNN_S. It registers one CTest test per code cell and
# documented machine, named like lesson.02/sanity_check and lesson.02/sanity_check@linux-x86_64
# (a section's: lesson.08.2/...), plus lesson.02/notebook, which runs the whole program the way a
# learner does.
#
# The cell tests are discovered after each build by asking the executable itself
# (lessonNN --list-tests), the way doctest_discover_tests and gtest_discover_tests work: the
# one parser of the lesson format decides what a cell is, and a malformed lesson fails the
# build with the file and line of the problem. CTest turns the listing into tests when it runs.

set(TUTOR_CELL_TESTS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/TutorCellTests.cmake")
set(TUTOR_LESSON_SECTIONS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/TutorLessonSections.cmake")
include("${TUTOR_LESSON_SECTIONS_SCRIPT}")

function(tutor_add_lesson name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SECTIONS")
  if(NOT name MATCHES "^([0-9][0-9])_[a-z0-9_]+$")
    message(FATAL_ERROR "lesson '${name}': expected NN_topic, for example 02_device_checks")
  endif()
  set(number "${CMAKE_MATCH_1}")
  set(folder "${CMAKE_CURRENT_SOURCE_DIR}/${name}")
  if(NOT IS_DIRECTORY "${folder}")
    if(arg_SECTIONS)
      message(FATAL_ERROR "lesson '${name}': SECTIONS are for a lesson in a folder, and there is no ${folder}")
    endif()
    tutor_add_lesson_program("${name}.cpp" "${number}")
    return()
  endif()
  if(NOT EXISTS "${folder}/shared.h")
    message(FATAL_ERROR "lesson '${name}': a lesson in sections needs its ${name}/shared.h")
  endif()
  if(NOT arg_SECTIONS)
    message(FATAL_ERROR "lesson '${name}': list its sections, SECTIONS ${number}_1_topic ...")
  endif()
  tutor_check_lesson_sections("${folder}" "${number}" "${arg_SECTIONS}")
  foreach(section IN LISTS arg_SECTIONS)
    if(NOT section MATCHES "^${number}_([1-9])_[a-z0-9_]+$")
      message(FATAL_ERROR "lesson '${name}': section '${section}' should be ${number}_S_topic, S from 1 to 9")
    endif()
    tutor_add_lesson_program("${name}/${section}.cpp" "${number}.${CMAKE_MATCH_1}")
  endforeach()
  add_test(NAME "lesson.${number}/sections"
    COMMAND "${CMAKE_COMMAND}" -D "FOLDER=${folder}" -D "NUMBER=${number}" -D "LISTED=${arg_SECTIONS}"
            -P "${TUTOR_LESSON_SECTIONS_SCRIPT}")
  set_tests_properties("lesson.${number}/sections" PROPERTIES LABELS "lessons")
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
