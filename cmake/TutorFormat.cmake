# The code's format (.clang-format): the target `format` applies it, `check_format` (which CI
# builds) fails on any file that differs. Lessons and the labs' exercise files are formatted by
# hand, as prose is: their cells, documented outputs and decoy blocks depend on their exact lines,
# so only the machinery is formatted (TutorFormatFiles.cmake lists it). The check needs
# clang-format 14, Debian 12's (./setup --with-test-tools installs it): other releases break some
# lines differently.

find_program(TUTOR_CLANG_FORMAT NAMES clang-format-14 clang-format)

if(TUTOR_CLANG_FORMAT)
  set(format_files "${CMAKE_COMMAND}" -D "CLANG_FORMAT=${TUTOR_CLANG_FORMAT}"
      -D "ROOT=${PROJECT_SOURCE_DIR}")
  set(script -P "${CMAKE_CURRENT_LIST_DIR}/TutorFormatFiles.cmake")  # after the -D options
  add_custom_target(format
    COMMAND ${format_files} -D MODE=fix ${script}
    COMMENT "Formatting the engine, the site, the quizzes' programs, the labs' harness and the tests"
    VERBATIM)
  add_custom_target(check_format
    COMMAND ${format_files} -D MODE=check ${script}
    COMMENT "Checking the format of the engine, the site, the quizzes' programs, the labs' harness and the tests"
    VERBATIM)
endif()
