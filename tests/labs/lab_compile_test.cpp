// lab_compile, the compiler launcher of a learner's lab program: the compiler runs within a time
// and a memory limit, and a limit that stops it is named (labs/harness/lab_compile.cpp). A
// shell stands in for the compiler.

#include <doctest/doctest.h>

#include "end_to_end.h"

using namespace end_to_end;

TEST_CASE("a compile that never ends is stopped at six times the time limit, and says so") {
  // A file that includes a FIFO nobody writes waits as this does.
  const Run run = run_program({program("lab_compile"), "sh", "-c", "sleep 60"},
                              {.environment = {"MPS_COURSE_TIME_LIMIT=1"}});
  expect_status(run, 1);
  expect_text(run, {"error: the compiler was still compiling this file after 6 s, and was "
                    "stopped: does it include a file that never ends, such as a FIFO"});
}

TEST_CASE("a compile that runs out of its memory says which limit stopped it") {
  const Run run =
      run_program({program("lab_compile"), "sh", "-c",
                   "echo 'cc1plus: out of memory allocating 2147483664 bytes'; exit 1"});
  expect_status(run, 1);
  expect_text(run, {"cc1plus: out of memory allocating 2147483664 bytes\n",
                    "error: compiling this file took more than the 1 GiB of memory a compile may "
                    "use, and was stopped: does it include a file that never ends, such as "
                    "/dev/zero?"});
}

TEST_CASE("a compile that succeeds passes on what the compiler said, and its status") {
  const Run run = run_program({program("lab_compile"), "sh", "-c", "echo warning: a; exit 0"});
  expect_status(run, 0);
  CHECK(run.output == "warning: a\n");
}
