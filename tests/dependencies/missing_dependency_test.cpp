// The build explains a missing dependency: a copy of the project configured with fmt hidden must
// stop with the package and the commands that install it.

#include <doctest/doctest.h>

#include "end_to_end.h"

using namespace end_to_end;

TEST_CASE("a missing dependency stops configuration with the command that installs it") {
  const Run run = run_program({TUTOR_CMAKE_COMMAND, "-S", source(""), "-B", scratch("without_fmt"),
                               "-G", TUTOR_CMAKE_GENERATOR, "-DCMAKE_DISABLE_FIND_PACKAGE_fmt=ON"});
  expect_failure(run);
  expect_text(run, {"Missing dependency: fmt 9 or newer", "sudo apt-get install libfmt-dev",
                    "brew install fmt"});
}
