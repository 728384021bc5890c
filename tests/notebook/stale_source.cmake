# A lesson edited after its program was built (one line added at the top) must be refused with
# advice to rebuild, not mapped onto the wrong cells.
#   -D EXECUTABLE=lesson program  -D SOURCE=its lesson file  -D COPY=where to write the edit
file(READ "${SOURCE}" text)
file(WRITE "${COPY}" "// one new line\n${text}")
execute_process(COMMAND "${EXECUTABLE}" --source "${COPY}" --list-cells
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
message("${out}${err}")
if(NOT status EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${status}")
endif()
string(FIND "${err}" "the lesson changed since this program was built; rebuild it" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the error does not say to rebuild")
endif()
