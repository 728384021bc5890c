# Runs a command and checks its exit status and output, for end-to-end tests.
#   -D COMMAND=prog;arg;...   the command
#   -D EXPECT_STATUS=N|nonzero
#   -D EXPECT_TEXT=text;...   substrings that must appear in stdout+stderr
#   -D FORBID_TEXT=text;...   substrings that must not appear
#   -D INPUT_FILE=path        optional: what the command reads on stdin
#   -D WORKING_DIRECTORY=dir  optional: where the command runs
#   -D ABSENT_FILE=name       optional: a file the command must not have created there
# CTest hands list arguments over with escaped separators (\;); turn them back into lists.
foreach(list_var COMMAND EXPECT_TEXT FORBID_TEXT)
  string(REPLACE "\\;" ";" ${list_var} "${${list_var}}")
endforeach()
if(INPUT_FILE)
  set(stdin INPUT_FILE "${INPUT_FILE}")
endif()
if(WORKING_DIRECTORY)
  file(MAKE_DIRECTORY "${WORKING_DIRECTORY}")
  set(where WORKING_DIRECTORY "${WORKING_DIRECTORY}")
  if(ABSENT_FILE)
    file(REMOVE "${WORKING_DIRECTORY}/${ABSENT_FILE}")
  endif()
endif()
execute_process(COMMAND ${COMMAND} ${stdin} ${where}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
set(all "${out}${err}")
message("${all}")
if(EXPECT_STATUS STREQUAL "nonzero")
  if(status EQUAL 0)
    message(FATAL_ERROR "expected a failure, but the command succeeded")
  endif()
elseif(NOT status STREQUAL EXPECT_STATUS)
  message(FATAL_ERROR "expected exit status ${EXPECT_STATUS}, got ${status}")
endif()
foreach(text IN LISTS EXPECT_TEXT)
  string(FIND "${all}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing from the output: ${text}")
  endif()
endforeach()
foreach(text IN LISTS FORBID_TEXT)
  string(FIND "${all}" "${text}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "unexpected in the output: ${text}")
  endif()
endforeach()
if(ABSENT_FILE AND EXISTS "${WORKING_DIRECTORY}/${ABSENT_FILE}")
  message(FATAL_ERROR "the command created ${ABSENT_FILE}")
endif()
