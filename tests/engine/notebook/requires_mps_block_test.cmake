# Script mode (cmake -P): a requires="mps" cell cannot document output for a machine without MPS
# (there it prints the standard line without running). Lesson 5's one explicit guard documents
# its line for those machines; marked requires="mps" in a copy (same line numbers), the program
# must refuse the lesson and name the block.
#   -D PROGRAM=lesson05 -D SOURCE=.../05_timing_and_synchronization.cpp -D COPY=<scratch file>

file(READ "${SOURCE}" text)
set(marker "// %% naive_vs_synchronized compare=")
string(FIND "${text}" "${marker}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${SOURCE} has no cell naive_vs_synchronized any more; choose another cell with a guard")
endif()
string(REPLACE "${marker}" "// %% naive_vs_synchronized requires=\"mps\" compare=" text "${text}")
file(WRITE "${COPY}" "${text}")
execute_process(COMMAND "${PROGRAM}" --source "${COPY}" --list-tests
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
message("${out}${err}")
if(NOT status EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${status}")
endif()
string(FIND "${err}" "error: cell 'naive_vs_synchronized' requires mps, which intel-mac-macos12.0 has not: there it prints \"no mps device here: this cell needs MPS\" without running; document no output for it" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the error should name the cell, the machine and the standard line")
endif()
