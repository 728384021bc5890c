// A lab program whose learner code crashes or never ends still gives a verdict, naming the check
// that was running (fixtures/runaway_timing_lab.cpp). The terminal is wide: these check what the
// report says, not how it wraps.

#include <doctest/doctest.h>

#include "end_to_end.h"

using namespace end_to_end;

namespace {

// Both verdicts end with the same next step.
const std::string kNext =
    "Next: the check marked ✘ above names what it tests; the code of your file that does that is "
    "where to look.\n";

Run runaway_lab(std::vector<std::string> environment) {
  environment.push_back("COLUMNS=1000");
  return run_program({program("runaway_timing_lab")},
                     {.environment = environment, .directory = "", .input = ""});
}

}  // namespace

TEST_CASE("code that crashes is named with its signal and the check that ran it") {
  if (kUnderAddressSanitizer) return skip("AddressSanitizer reports the crash in its own words");
  const Run run = runaway_lab({"RUNAWAY_CRASH=1"});
  expect_failure(run);
  expect_text(
      run,
      {"✘ the timer gives milliseconds per run, with or without MPS\n",
       "your code crashed with a segmentation fault (SIGSEGV: memory read or written through a null",
       "in 'the timer gives milliseconds per run, with or without MPS'",
       "✘ Your code crashed, so the checks after that one did not run.\n" + kNext});
}

TEST_CASE("code that never returns is stopped at the time limit, naming the check") {
  const Run run = runaway_lab({"RUNAWAY_LOOP=1", "MPS_COURSE_TIME_LIMIT=1"});
  expect_status(run, 124);
  expect_text(run,
              {"  ✘ the timer gives milliseconds per run, with or without MPS\n"
               "    Stopped after 1 s: your code was still running.",
               "✘ Your code did not finish, so the checks after that one did not run.\n" + kNext});
}

TEST_CASE("a time limit that is no number of seconds in range is refused, naming the range") {
  const Run run = runaway_lab({"MPS_COURSE_TIME_LIMIT=357913942"});
  expect_status(run, 2);
  expect_text(run, {"MPS_COURSE_TIME_LIMIT=357913942 is not a time limit: give whole seconds "
                    "from 1 to 86400"});
  expect_no_text(run, {"✔"});
}
