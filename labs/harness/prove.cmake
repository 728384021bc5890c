# Script mode (cmake -P): the proofs of one lab, run by CTest.
#   -D MODE=starter -D PROGRAM=labNN_starter -D SOURCE=.../starter/lab.cpp -D TOP=<course folder>
#      The starter fails, and its report names the first TODO of the file as the next step.
#   -D MODE=decoy -D PROGRAM=labNN_decoy_x -D SOURCE=.../decoys/x.md
#      The decoy's description says which test it fails and what the failure says:
#        Fails: "the timer warms up before it measures"
#        Says: "builds its graph"
#      That test fails with that text, and every other test passes.

function(run_program)
  # Wide enough that no line wraps: the proofs check what the report says, not its layout.
  execute_process(COMMAND "${PROGRAM}" --width=1000 ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
  set(output "${out}${err}" PARENT_SCOPE)
  set(status "${status}" PARENT_SCOPE)
  message("$ ${PROGRAM} ${ARGN}\n${out}${err}")
endfunction()

function(require_text text)
  string(FIND "${output}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the output should say: ${text}")
  endif()
endfunction()

file(READ "${SOURCE}" source)
if(MODE STREQUAL "starter")
  # The first TODO line and its number (counted from the newlines before it).
  string(REGEX MATCH "(^|\n)[ \t]*TODO\\(\"([^\"]+)\"" todo_line "${source}")
  if(NOT todo_line)
    message(FATAL_ERROR "${SOURCE}: a starter needs at least one TODO(\"N.M\", \"...\") line")
  endif()
  set(first_id "${CMAKE_MATCH_2}")
  string(FIND "${source}" "${todo_line}" at)
  string(SUBSTRING "${source}" 0 ${at} before)
  string(REGEX REPLACE "[^\n]" "" newlines "${before}")
  string(LENGTH "${newlines}" number)
  if(todo_line MATCHES "^\n")
    math(EXPR number "${number} + 2")
  else()
    math(EXPR number "${number} + 1")
  endif()
  file(RELATIVE_PATH shown "${TOP}" "${SOURCE}")
  run_program()
  if(status EQUAL 0)
    message(FATAL_ERROR "the starter passes its tests; it should leave work for the learner")
  endif()
  require_text("Next: TODO ${first_id} in ${shown}:${number}:")
elseif(MODE STREQUAL "decoy")
  if(source MATCHES "\nFails: \"([^\n]+)\"\n")
    set(test_name "${CMAKE_MATCH_1}")
  endif()
  if(source MATCHES "\nSays: \"([^\n]+)\"\n")
    set(says "${CMAKE_MATCH_1}")
  endif()
  if(NOT test_name OR NOT says)
    message(FATAL_ERROR "${SOURCE}: a decoy needs the lines Fails: \"test name\" and Says: \"text\"")
  endif()
  if(test_name MATCHES "[*?\\]")
    message(FATAL_ERROR "${SOURCE}: a test name used by a decoy cannot contain * ? or \\ (doctest's wildcards)")
  endif()
  string(REPLACE "," "\\," filter "${test_name}")  # doctest's filters split at unescaped commas
  run_program("--test-case=${filter}")
  if(status EQUAL 0)
    message(FATAL_ERROR "the decoy passes \"${test_name}\"; that test should catch it")
  endif()
  require_text("✘ ${test_name}")
  require_text("${says}")
  run_program("--test-case-exclude=${filter}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "the decoy fails more than \"${test_name}\"; each decoy should fail exactly the test it names")
  endif()
else()
  message(FATAL_ERROR "MODE must be starter or decoy")
endif()
