# A lesson program run on an edited copy of its lesson (--source) must refuse it with a precise
# error, status 2, before anything runs.
#   -D EXECUTABLE=lesson program  -D SOURCE=its lesson file  -D COPY=where to write the edit
#   -D FROM=text in the lesson  -D TO=its replacement  -D EXPECT=text the error must contain
file(READ "${SOURCE}" text)
string(FIND "${text}" "${FROM}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the lesson has no line ${FROM}")
endif()
string(REPLACE "${FROM}" "${TO}" text "${text}")
file(WRITE "${COPY}" "${text}")
execute_process(COMMAND "${EXECUTABLE}" --source "${COPY}" --list-cells
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
message("${out}${err}")
if(NOT status EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${status}")
endif()
string(FIND "${err}" "${EXPECT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the error does not say: ${EXPECT}")
endif()
