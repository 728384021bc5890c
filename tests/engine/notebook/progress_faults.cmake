# A whole lesson whose run cannot be recorded in the progress file: it still shows every cell,
# then says clearly that the run was not recorded, exits with status 4, and leaves whatever is
# at the progress path exactly as it was.
#   -D LESSON=path     the lesson program
#   -D SCRATCH=dir     a directory of its own for this test
#   -D FAULT=fifo|read_only|full_disk
#     fifo       a FIFO at the progress path (once, the run waited forever for a writer)
#     read_only  the progress file's directory cannot be written
#     full_disk  writes fail past 1 KiB (ulimit -f), as on a full file system

file(REMOVE_RECURSE "${SCRATCH}")
file(MAKE_DIRECTORY "${SCRATCH}")
set(progress "${SCRATCH}/progress.json")
set(run_lesson "${LESSON}" --minimal)

if(FAULT STREQUAL "fifo")
  execute_process(COMMAND mkfifo "${progress}" RESULT_VARIABLE made)
  if(NOT made EQUAL 0)
    message(FATAL_ERROR "mkfifo failed")
  endif()
  set(says "is a FIFO (named pipe), not a regular file; it is left as it is")
else()
  # A valid progress file of several KiB: it is what the run must not damage.
  set(labs "")
  foreach(n RANGE 10 60)
    string(APPEND labs "\"${n}_a_lab_with_a_long_name\": {\"passed_at\": \"\", \"hints_shown\": 1}, ")
  endforeach()
  string(REGEX REPLACE ", $" "" labs "${labs}")
  file(WRITE "${progress}"
    "{\"format\": 1, \"lessons_verified\": {\"01\": \"2026-11-21T10:00:00Z\"}, \"quizzes\": {}, \"labs\": {${labs}}}\n")
  if(FAULT STREQUAL "read_only")
    file(CHMOD "${SCRATCH}" PERMISSIONS OWNER_READ OWNER_EXECUTE)
    set(says "Permission denied")
    # Root may write anywhere; without these capabilities it obeys the directory's permissions.
    execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(uid STREQUAL "0")
      set(run_lesson setpriv --bounding-set -dac_override,-dac_read_search,-fowner ${run_lesson})
    endif()
  elseif(FAULT STREQUAL "full_disk")
    # An ignored SIGXFSZ turns a write past the limit into an error (EFBIG) instead of a kill.
    # (Newlines, not semicolons, separate the commands: a semicolon would split a CMake list.)
    set(run_lesson sh -c "trap '' XFSZ\nulimit -f 1\nexec \"$0\" \"$@\"" ${run_lesson})
    set(says "File too large")
  else()
    message(FATAL_ERROR "unknown FAULT '${FAULT}'")
  endif()
  file(READ "${progress}" before)
endif()

set(ENV{MPS_COURSE_PROGRESS} "${progress}")
set(ENV{NO_COLOR} 1)
execute_process(COMMAND ${run_lesson} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status TIMEOUT 60)
file(CHMOD "${SCRATCH}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
message("${out}${err}")

if(NOT status STREQUAL "4")
  message(FATAL_ERROR "expected exit status 4, got ${status}")
endif()
foreach(text "every cell printed its documented output, but the run could not be recorded as verified" "${says}")
  string(FIND "${err}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing from stderr: ${text}")
  endif()
endforeach()
if(FAULT STREQUAL "fifo")
  if(NOT EXISTS "${progress}" OR IS_DIRECTORY "${progress}")
    message(FATAL_ERROR "the FIFO is gone")
  endif()
  execute_process(COMMAND test -p "${progress}" RESULT_VARIABLE still_fifo)
  if(NOT still_fifo EQUAL 0)
    message(FATAL_ERROR "the FIFO was replaced")
  endif()
else()
  file(READ "${progress}" after)
  if(NOT after STREQUAL before)
    message(FATAL_ERROR "the progress file changed")
  endif()
endif()
file(GLOB left_behind "${SCRATCH}/*.corrupt-*" "${SCRATCH}/*.tmp-*")
if(left_behind)
  message(FATAL_ERROR "left behind: ${left_behind}")
endif()
