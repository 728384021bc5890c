// The quiz program as a learner runs it: the CI check of the banks, known answer sheets, JSON
// results, and the interactive mode fed through stdin with bad input. Its progress is a file of
// its own.

#include <doctest/doctest.h>

#include <fstream>

#include "end_to_end.h"

using namespace end_to_end;

namespace {

// The mastery check's key, and sheets with one, two and three answers changed to wrong ones.
const std::string kKey =
    "stack=c,unified-memory=b,built-not-available=c,placement-and-shape=c,fallback-diagnosis=d,honest-timing=d,"
    "batch-bytes=a,memory-tools=d,worth-it=c,cross-device-results=d,iteration-zero-and-mfu=c,compile-and-lazy=a,"
    "input-bound-split=d,accumulate-divide=c,kernel-tail-and-barrier=b";

std::string with_wrong(
    std::string sheet,
    std::initializer_list<std::pair<std::string_view, std::string_view>> changes) {
  for (const auto& [right, wrong] : changes) sheet.replace(sheet.find(right), right.size(), wrong);
  return sheet;
}

Run quiz(std::vector<std::string> arguments, const std::string& input = "") {
  arguments.insert(arguments.begin(), program("quiz"));
  return run_program(
      arguments, {.environment = {"MPS_COURSE_PROGRESS=" + scratch("progress") + "/progress.json"},
                  .directory = "",
                  .input = input});
}

std::string input_file(std::string_view name, const std::string& text) {
  const std::string path = scratch(name) + "/input.txt";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST_CASE("every bank parses and every lesson link resolves") {
  const Run run = quiz({"check"});
  expect_status(run, 0);
  expect_text(
      run,
      {"11 banks, 65 questions: every bank parses, every lesson link resolves, and no bank's answers "
       "stand out by length"});
}

TEST_CASE("the mastery check passes with 12 of 15 right") {
  const Run run = quiz({"take", "mastery", "--answers",
                        with_wrong(kKey, {{"honest-timing=d", "honest-timing=a"},
                                          {"worth-it=c", "worth-it=a"},
                                          {"batch-bytes=a", "batch-bytes=b"}})});
  expect_status(run, 0);
  expect_text(run, {"Mastery check: 12 of 15 (80 %). Passed"});
}

TEST_CASE("the mastery check fails with 11 of 15 right, naming the cells to re-run") {
  const Run run =
      quiz({"take", "mastery", "--answers",
            with_wrong(kKey, {{"honest-timing=d", "honest-timing=a"},
                              {"worth-it=c", "worth-it=a"},
                              {"batch-bytes=a", "batch-bytes=b"},
                              {"kernel-tail-and-barrier=b", "kernel-tail-and-barrier=a"}})});
  expect_status(run, 1);
  expect_text(run, {"Mastery check: 11 of 15 (73 %). Not passed yet",
                    "lessons/lesson05_1 --cell naive_vs_synchronized",
                    "lessons/lesson06_1 --cell memory_bill",
                    "lessons/lesson07_2 --cell runbook_on_measured_workloads",
                    "lessons/lesson10_1 --cell the_grids_tail"});
}

TEST_CASE("results come as JSON") {
  const Run run = quiz({"take", "mastery", "--answers",
                        with_wrong(kKey, {{"honest-timing=d", "honest-timing=a"}}), "--json"});
  expect_status(run, 0);
  expect_text(run, {"\"correct\": 14", "\"passed\": true", "\"total\": 15"});
}

TEST_CASE("a sheet of letters without question ids is refused") {
  const Run run = quiz({"take", "mastery", "--answers", "c,b,c,c,a,d,a,d,c,d,c,a"});
  expect_status(run, 2);
  expect_text(run, {"an answer sheet names the question of each answer"});
}

TEST_CASE("the interactive quiz re-asks after bad input and finishes") {
  // Wrong letters, an empty line, a 10,000-character line and bytes that are not UTF-8 are each
  // re-asked; the last answers are valid (the key of lesson02 --seed 3).
  const std::string bad = "z\n\n" + std::string(10000, 'x') + "\n\xff\xfe\x80\na\nb\na\nc\nc\n";
  const Run run = quiz({"take", "lesson02", "--seed", "3"}, input_file("bad_input", bad));
  expect_status(run, 0);
  expect_text(run, {"Question 1 of 5", "That is not one of the letters.", "No answer given.",
                    "Right.", "Question 5 of 5", "Lesson 2 self-check: 5 of 5"});
}

TEST_CASE("input that ends early stops the quiz without recording it") {
  const Run run = quiz({"take", "mastery"}, input_file("short_input", "a\n"));
  expect_status(run, 3);
  expect_text(run, {"The input ended at question 2 of 15, after 1 answer; it was not recorded:"});
  const Run none = quiz({"take", "mastery"}, input_file("no_input", ""));
  expect_status(none, 3);
  expect_text(none, {"The input ended at question 1 of 15; nothing was recorded.\n"});
}
