# A lesson in sections builds the sections lessons/CMakeLists.txt lists, while the course catalog
# finds them by reading the lesson's folder. The two must agree: a section file that is not
# listed would be shown by `course` and never built. Checked when the build is configured and by
# a test (which sees a file added since), instead of re-reading the folders on every build.
#   cmake -D FOLDER=DIR -D NUMBER=NN -D "LISTED=NN_1_topic;NN_2_topic" -P TutorLessonSections.cmake

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  cmake_minimum_required(VERSION 3.25)  # the project's policies (if(IN_LIST)), run as a script too
endif()

function(tutor_check_lesson_sections folder number listed)
  file(GLOB found RELATIVE "${folder}" "${folder}/${number}_[1-9]_*.cpp")
  list(TRANSFORM found REPLACE "\\.cpp$" "")
  set(problems "")
  foreach(section IN LISTS found)
    if(NOT section IN_LIST listed)
      string(APPEND problems "\n  ${folder}/${section}.cpp is a section the course shows: "
                             "add ${section} to the lesson's SECTIONS in lessons/CMakeLists.txt")
    endif()
  endforeach()
  foreach(section IN LISTS listed)
    if(NOT section IN_LIST found)
      string(APPEND problems "\n  lessons/CMakeLists.txt lists ${section}, but there is no "
                             "${folder}/${section}.cpp")
    endif()
  endforeach()
  if(problems)
    message(FATAL_ERROR "lesson ${number}'s sections:${problems}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  tutor_check_lesson_sections("${FOLDER}" "${NUMBER}" "${LISTED}")
endif()
