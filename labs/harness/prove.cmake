# Script mode (cmake -P): the proofs of one lab, run by CTest.
#   -D MODE=starter -D PROGRAM=labNN_starter -D SOURCE=.../starter/lab.cpp -D TOP=<course folder>
#      -D LAB_VERSIONS=lab_versions
#      The starter fails, and its report names the first TODO of the file as the next step.
#   -D MODE=decoy -D PROGRAM=labNN_decoy_x -D SOURCE=.../decoys/x.md -D LAB_VERSIONS=lab_versions
#      The decoy's description says which test it fails and what the failure says:
#        Fails: "the timer warms up before it measures"
#        Says: "builds its graph"
#      That test fails with that text, and every other test passes. A mistake whose effect
#      also changes an answer further on names those tests too, and they must fail as well:
#        Also fails: "the course's workloads get the runbook's answers on the M3 Max"

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

if(MODE STREQUAL "starter")
  # The first TODO's id and line, as the lab format's parser reads them (lab_versions first-todo).
  execute_process(COMMAND "${LAB_VERSIONS}" first-todo "${SOURCE}"
    OUTPUT_VARIABLE first ERROR_VARIABLE problem RESULT_VARIABLE found OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT found EQUAL 0)
    message(FATAL_ERROR "${problem}")
  endif()
  separate_arguments(first UNIX_COMMAND "${first}")
  list(GET first 0 first_id)
  list(GET first 1 number)
  file(RELATIVE_PATH shown "${TOP}" "${SOURCE}")
  run_program()
  if(status EQUAL 0)
    message(FATAL_ERROR "the starter passes its tests; it should leave work for the learner")
  endif()
  require_text("Next: TODO ${first_id} in ${shown}:${number}:")
elseif(MODE STREQUAL "decoy")
  # What the decoy must fail and say, as the lab format's parser reads it (lab_versions describe).
  execute_process(COMMAND "${LAB_VERSIONS}" describe "${SOURCE}"
    OUTPUT_VARIABLE description ERROR_VARIABLE problem RESULT_VARIABLE described)
  if(NOT described EQUAL 0)
    message(FATAL_ERROR "${problem}")
  endif()
  string(REGEX MATCH "(^|\n)fails: ([^\n]+)" _ "${description}")
  set(test_name "${CMAKE_MATCH_2}")
  string(REGEX MATCH "(^|\n)says: ([^\n]+)" _ "${description}")
  set(says "${CMAKE_MATCH_2}")
  string(REGEX MATCHALL "also fails: [^\n]+" also_lines "${description}")
  set(also_fails "")
  foreach(line IN LISTS also_lines)
    string(REGEX REPLACE "^also fails: " "" also "${line}")
    list(APPEND also_fails "${also}")
  endforeach()
  string(REPLACE "," "\\," filter "${test_name}")  # doctest's filters split at unescaped commas
  run_program("--test-case=${filter}")
  if(status EQUAL 0)
    message(FATAL_ERROR "the decoy passes \"${test_name}\"; that test should catch it")
  endif()
  require_text("✘ ${test_name}")
  require_text("${says}")
  set(failing "${filter}")
  foreach(also IN LISTS also_fails)
    string(REPLACE "," "\\," also_filter "${also}")
    run_program("--test-case=${also_filter}")
    if(status EQUAL 0)
      message(FATAL_ERROR "the decoy passes \"${also}\", which its description says it also fails")
    endif()
    string(APPEND failing ",${also_filter}")
  endforeach()
  run_program("--test-case-exclude=${failing}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "the decoy fails more than the tests it names; each decoy should fail exactly those")
  endif()
else()
  message(FATAL_ERROR "MODE must be starter or decoy")
endif()
