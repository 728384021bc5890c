# Script mode (cmake -P): a lesson whose cells fail fails the site's build. The generator runs a
# course of one lesson, the fixture whose documented output is wrong, and must exit non-zero,
# naming each failing run, while still writing the pages that show how it failed.
#   -D SITE=course_site -D PROGRAM=wrong_output_lesson -D SOURCE=.../wrong_output_lesson.cpp
#   -D BANKS=... -D LABS=... -D THEME=... -D WORK=<scratch folder>

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/lessons" "${WORK}/programs")
file(COPY_FILE "${SOURCE}" "${WORK}/lessons/01_wrong_output.cpp")
file(CREATE_LINK "${PROGRAM}" "${WORK}/programs/lesson01" SYMBOLIC)
execute_process(
  COMMAND "${SITE}" --lesson "${WORK}/lessons/01_wrong_output.cpp" --programs "${WORK}/programs"
          --banks "${BANKS}" --labs "${LABS}" --theme "${THEME}" --output "${WORK}/html" --work "${WORK}/runs"
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
message("${out}${err}")
if(status EQUAL 0)
  message(FATAL_ERROR "course_site exited 0 although cells failed")
endif()
foreach(text "cell runs failed their checks, so the site is not published"
             "lesson 01 cell arithmetic on m3-max-64gb" "lesson 01 cell raises on m1-8gb" "and 13 more")
  string(FIND "${err}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "course_site's errors should say: ${text}")
  endif()
endforeach()
foreach(passed "cell fine on m3-max-64gb" "cell fine on linux-x86_64")  # documented there, so it passes
  string(FIND "${err}" "${passed}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "course_site named a cell that passed: ${passed}")
  endif()
endforeach()
if(NOT EXISTS "${WORK}/html/index.html")
  message(FATAL_ERROR "course_site wrote no pages to show the failures on")
endif()
