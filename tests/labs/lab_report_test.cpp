// What a lab's report says when a check fails: what each failed input or machine saw, and what
// they teach once under them all; and when the learner's code threw, what it threw and where,
// without a lesson about another mistake. The lab programs are the proofs' decoys and the
// fixtures in fixtures/. The terminal is wide: these check what the report says, not how it
// wraps.

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "end_to_end.h"

using namespace end_to_end;

namespace {

Run lab_program(std::string_view target, std::vector<std::string> environment = {}) {
  environment.push_back("COLUMNS=1000");
  environment.push_back("NO_COLOR=1");
  return run_program({program(target)}, {.environment = environment, .directory = "", .input = ""});
}

// How many times `text` occurs in the report.
int occurrences(const Run& run, std::string_view text) {
  int count = 0;
  for (std::size_t at = run.output.find(text); at != std::string::npos;
       at = run.output.find(text, at + text.size()))
    ++count;
  return count;
}

void expect_once(const Run& run, std::string_view text) {
  CHECK_MESSAGE(occurrences(run, text) == 1, "the report should say \"" << std::string(text)
                                                                        << "\" once:\n"
                                                                        << run.output);
}

}  // namespace

TEST_CASE("a misconception that several inputs fail is explained once, under each input") {
  // Lab 1's decoy compares the releases as text: four of the nine releases get the wrong answer.
  // (It misjudges Python 3.8 in the preflight too: only this check's report is read here.)
  const Run run = run_program({program("lab01_decoy_compares_as_text"),
                               "--test-case=macOS releases compare as numbers and not as text"},
                              {.environment = {"COLUMNS=1000", "NO_COLOR=1"}});
  expect_failure(run);
  expect_text(run, {"  ✘ macOS releases compare as numbers and not as text\n"
                    "    macos_at_least(\"14\", 14, 0) should be true\n"
                    "    macos_at_least(\"13.10\", 13, 4) should be true\n"
                    "    macos_at_least(\"13.4\", 13, 10) should be false\n"
                    "    macos_at_least(\"9.6\", 14, 0) should be false\n"
                    "    A release is a list of numbers: as text \"13.10\" sorts before \"13.4\""});
  expect_once(run, "A release is a list of numbers");
  expect_once(run, "see: build/lessons/lesson01 --cell requirements_check");
}

TEST_CASE("a misconception that several machines fail is explained once, under each machine") {
  // The fixture's timer returns 0 ms: five runs of 2 ms measure the same 0.000 ms on both
  // machines, while the GPU's work takes each machine its own time.
  const Run run = lab_program("runaway_timing_lab");
  expect_failure(run);
  expect_text(run,
              {"    on linux-x86_64 and m3-max-64gb\n"
               "    five runs of work that takes the host 2 ms each measured 0.000 ms.\n"
               "    Return milliseconds",
               "  ✘ the timer waits for the GPU before it stops the clock\n    on m3-max-64gb\n",
               "    on m1-8gb\n    your timer measured 0.000 ms per run;"});
  expect_once(run, "Return milliseconds (perf_counter() counts seconds)");
  expect_once(run, "Calls on mps tensors only queue kernels");
  expect_once(run, "see: build/lessons/lesson05_1 --cell naive_vs_synchronized");
}

TEST_CASE("code that throws is named with what it threw and the input, not a misconception") {
  const Run run = lab_program("throwing_preflight_lab");
  expect_failure(run);
  expect_text(run,
              {"  ✘ macOS releases compare as numbers and not as text\n"
               "    Your code threw std::invalid_argument: stoi",
               "      while checking: macos_at_least(\"\", 14, 0) should be false\n",
               "Next: the first check marked ✘ above stopped at an exception your code threw"});
  expect_no_text(run, {"A release is a list of numbers", "see: build/lessons/lesson01",
                       "says what went wrong and where to read about it"});
}

TEST_CASE("code that throws on every input names the exception once, with each input") {
  const Run run = lab_program("throwing_preflight_lab", {"THROWING_LAB_AT=1"});
  expect_failure(run);
  expect_text(run, {"  ✘ macOS releases compare as numbers and not as text\n"
                    "    Your code threw std::out_of_range: ",
                    "      while checking: macos_at_least(\"15.6.1\", 14, 0) should be true\n"
                    "      while checking: macos_at_least(\"14\", 14, 0) should be true\n",
                    "      while checking: macos_at_least(\"10.15.7\", 10, 15) should be true\n"
                    "    Your code threw std::invalid_argument: stoi\n"
                    "      while checking: macos_at_least(\"\", 14, 0) should be false\n"});
  expect_no_text(run, {"A release is a list of numbers", "see: build/lessons/lesson01"});
}

TEST_CASE("an engine error that is not the lab's mistake is shown, not explained as one") {
  // Lab 3 placed right, with a tensor that was never given a value.
  const Run run = lab_program("undefined_tensor_placement_lab");
  expect_failure(run);
  expect_text(run, {"  ✘ the repaired step trains on mps and its loss equals the cpu loss\n"
                    "    Your code threw RuntimeError: The tensor is undefined",
                    "      while checking: on m3-max-64gb, train_one_step(mps, seed 7)\n"});
  expect_no_text(run, {"Every tensor of the step must be on mps", "see: "});
}

TEST_CASE("an engine error that is the lab's mistake is explained as one") {
  // Lab 3's decoy calls to() without keeping what it returns: PyTorch's placement error.
  const Run run = lab_program("lab03_decoy_to_without_assignment");
  expect_failure(run);
  expect_text(run, {"    on m3-max-64gb and m1-8gb, train_one_step(mps, seed 7)\n"
                    "    it raised RuntimeError: Tensor for argument input is on cpu",
                    "    Every tensor of the step must be on mps.",
                    "    see: build/lessons/lesson03 --cell batch_left_on_cpu\n"});
  expect_no_text(run, {"Your code threw"});
}

TEST_CASE("a check's name wraps under itself in a narrow terminal, as the rest of the report") {
  const Run run =
      run_program({program("lab01_decoy_compares_as_text")},
                  {.environment = {"COLUMNS=40", "NO_COLOR=1"}, .directory = "", .input = ""});
  expect_failure(run);
  expect_text(run, {"  ✘ macOS releases compare as numbers\n"
                    "    and not as text\n"});
}

TEST_CASE("a count in a message reads as a count, not as an address") {
  const Run run = lab_program("lab07_decoy_one_process_for_both_devices");
  expect_failure(run);
  expect_text(run, {"measure() built the workload 1 time in a process an earlier part had already "
                    "used."});
  expect_no_text(run, {"workload 10x"});
}

TEST_CASE("a mistake is blamed only where it explains what was measured") {
  // The fixture leaves each step's preparation off the clock, and waits nowhere in its loop.
  const Run run = lab_program("untimed_preparation_lab");
  expect_failure(run);
  expect_text(run, {"  ✘ the measured gain compares whole steps on the cpu and on mps\n",
                    "  ✘ the timed loop waits for the GPU only at its end\n",
                    "which a wait in the loop does not explain either (it gives "});
  expect_no_text(run, {"A wait inside the timed loop"});
}
