// The built course command end to end on the real course, where nothing depends on the learner's
// own lab files: the lessons, the labs' other versions, errors, the quizzes. Each run keeps its
// progress in a file of its own, which starts empty.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "end_to_end.h"
#include "engine/notebook/terminal_text.h"

using namespace end_to_end;

namespace {

Run course(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), program("course"));
  return run_program(
      arguments, {.environment = {"MPS_COURSE_PROGRESS=" + scratch("progress") + "/progress.json"},
                  .directory = "",
                  .input = ""});
}

}  // namespace

TEST_CASE("--help lists every subcommand") {
  const Run run = course({"--help"});
  expect_status(run, 0);
  expect_text(run, {"course [status]", "course list", "course run NN", "course verify [NN]",
                    "course hint [NN]", "course reset NN", "course watch", "course quiz"});
}

TEST_CASE("without progress the next step is the first lesson") {
  const Run run = course({});
  expect_status(run, 0);
  expect_text(run, {"lessons 0 of 10 verified · labs 0 of 9 passed", "Next: lesson 01 · ",
                    "course run 01"});
}

TEST_CASE("a lab's reference solution passes through the front door, and records nothing") {
  const Run run = course({"verify", "03", "--variant", "solution"});
  expect_status(run, 0);
  expect_text(run,
              {"Lab 03 · Placement · labs/03_placement/solution/lab.cpp", "✔ All 2 checks pass."});
  expect_no_text(run, {"recorded in your progress"});
}

TEST_CASE("lab 9's Metal kernels: the solution passes, the starter stops at its first TODO") {
  const Run solution = course({"verify", "09", "--variant", "solution"});
  expect_status(solution, 0);
  expect_text(solution,
              {"Lab 09 · Metal puzzles · labs/09_metal_puzzles/solution", "✔ All 9 checks pass."});
  const Run starter = course({"verify", "09", "--variant", "starter"});
  expect_status(starter, 1);
  expect_text(starter, {"✘ 9 of 9 checks fail.",
                        "Next: TODO 9.1 in labs/09_metal_puzzles/starter/01_map.metal:9:"});
}

TEST_CASE("a kernel that does not compile shows Metal's diagnostic at its file's line") {
  const Run run = course({"verify", "09", "--variant", "undeclared_name"});
  expect_status(run, 1);
  expect_text(run, {"undeclared_name/02_zip.metal:10:21:",
                    "error: use of undeclared identifier 'c'", "        out[i] = a[i] + c[i];",
                    "see: build/lessons/lesson10_1 --cell a_compile_error"});
}

TEST_CASE("a time limit out of range is refused before anything runs, naming the range") {
  // Six times the lab's limit is the course's: this one overflowed to "ran for -1894967296 s".
  const Run run =
      run_program({program("course"), "verify", "03", "--variant", "solution"},
                  {.environment = {"MPS_COURSE_PROGRESS=" + scratch("limit") + "/progress.json",
                                   "MPS_COURSE_TIME_LIMIT=357913942"}});
  expect_status(run, 2);
  expect_text(run, {"MPS_COURSE_TIME_LIMIT=357913942 is not a time limit: give whole seconds "
                    "from 1 to 86400"});
  expect_no_text(run, {"✔"});
}

TEST_CASE("a starter fails with its first open TODO as the next step") {
  const Run run = course({"verify", "5", "--variant", "starter"});
  expect_status(run, 1);
  expect_text(run,
              {"✘ 5 of 5 checks fail.", "Next: TODO 5.1 in labs/05_timing/starter/lab.cpp:9:"});
}

TEST_CASE("a decoy fails the test it names, with the lesson cell to re-run") {
  const Run run = course({"verify", "02", "--variant", "compares_devices"});
  expect_status(run, 1);
  expect_text(run, {"✘ on_gpu recognises a tensor on mps although it reports mps:0",
                    "see: build/lessons/lesson02 --cell device_index", "✘ 1 of 4 checks fail."});
}

TEST_CASE("a message that fails on several machines is said once, naming them all") {
  const Run run = course({"verify", "02", "--variant", "two_states"});
  expect_status(run, 1);
  expect_text(run, {"    on intel-mac-macos12.0 and m2-max-macos13.7, is_built() is True",
                    "(--details also shows the expression each ✘ tested.)"});
  expect_no_text(run, {"    on intel-mac-macos12.0, is_built()", "(state == expected"});
}

TEST_CASE("--details shows the expression each failed check tested") {
  const Run run = course({"verify", "02", "--variant", "two_states", "--details"});
  expect_status(run, 1);
  expect_text(run, {"(state == expected was 0 == 1, labs/02_device_checks/tests.cpp:"});
  expect_no_text(run, {"(--details also shows"});
}

TEST_CASE("an unknown lab is refused with the labs there are") {
  const Run run = course({"verify", "99"});
  expect_status(run, 2);
  expect_text(run, {"'99' is not a lab's number; labs: 01, 02, 03, 04, 05, 06, 07"});
}

TEST_CASE("run builds a lesson and passes its options on") {
  const Run run = course({"run", "2", "--cell", "sanity_check", "--minimal"});
  expect_status(run, 0);
  expect_text(
      run, {"mps built: True\nmps available: True\nselected device: mps\noutput shape: (2, 2)\n"});
}

TEST_CASE("the quizzes answer through the front door") {
  const Run run = course({"quiz", "list"});
  expect_status(run, 0);
  expect_text(run, {"Mastery check"});
}

TEST_CASE("twins needs a lesson that exists") {
  const Run run = course({"twins", "99"});
  expect_status(run, 2);
  expect_text(run, {"'99' is not a lesson's number; lessons: 01, 02"});
}

TEST_CASE(
    "run NN runs a lesson's sections in order, run NN.S one, and the lesson counts once all are "
    "verified") {
  const std::string progress = "MPS_COURSE_PROGRESS=" + scratch("sections") + "/progress.json";
  const auto with_progress = [&](std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), program("course"));
    return run_program(arguments, {.environment = {progress}, .directory = "", .input = ""});
  };
  const Run second = with_progress({"run", "6.2", "--minimal"});
  expect_status(second, 0);
  expect_text(second, {"baseline   : 100% of token positions"});
  expect_no_text(second, {"recommended working set:"});
  expect_text(with_progress({"list"}), {"1 of 2 sections verified"});

  const Run whole = with_progress({"run", "06", "--minimal"});
  expect_status(whole, 0);
  const auto first_section = whole.output.find("recommended working set: 48.00 GiB");
  const auto second_section = whole.output.find("baseline   : 100% of token positions");
  CHECK(first_section != std::string::npos);
  CHECK(second_section != std::string::npos);
  CHECK(first_section < second_section);
  const Run list = with_progress({"list"});
  expect_no_text(list, {"sections verified"});
  expect_text(list, {"06 · Memory pressure on Apple GPUs"});
}

TEST_CASE("in a lesson in sections each --cell goes to its section, and a wrong one is named") {
  const Run two = course({"run", "08", "--cell", "mfu", "--cell=long_run", "--minimal"});
  expect_status(two, 0);
  expect_text(two, {"against this GPU's own float32 peak", "emulator: 5000 iterations at"});
  expect_no_text(two, {"number of parameters"});  // 8.1's model_size cell, not asked for

  const Run nowhere = course({"run", "05", "--cell", "nosuch"});
  expect_status(nowhere, 2);
  expect_text(nowhere, {"no section of lesson 05 has a cell named 'nosuch'; their cells:",
                        "05.2: hidden_sync_point, logging_boundary"});
  const Run elsewhere = course({"run", "5.2", "--cell", "warm_up"});
  expect_status(elsewhere, 2);
  expect_text(elsewhere,
              {"the cell 'warm_up' is in section 05.1: ", "course run 05.1 --cell warm_up\n"});
  const Run trace = course({"run", "05", "--trace", "t.json"});
  expect_status(trace, 2);
  expect_text(trace, {"--trace writes one section's file: name the section"});
  const Run zero = course({"run", "8.0"});
  expect_status(zero, 2);
  expect_text(zero, {"'8.0' is not a section of lesson 08; its sections: 08.1, 08.2, 08.3"});
}

namespace {

// What a run said, however the terminal wrapped it: each run of spaces and line breaks as one
// space.
std::string said(const Run& run) {
  std::string words;
  for (const char c : run.output) {
    const bool space = c == ' ' || c == '\n';
    if (!space || (!words.empty() && words.back() != ' ')) words += space ? ' ' : c;
  }
  return words;
}

// A python3 that cannot import torch, as the twin runner says it (engine/course/python).
std::string python_without_torch(const std::string& folder) {
  const std::string path = folder + "/python3";
  std::ofstream(path) << "#!/bin/sh\n"
                         "echo \"$0 (Python 3.0.0) cannot import torch: No module named "
                         "'torch'\" >&2\n"
                         "exit 77\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

}  // namespace

TEST_CASE("plan takes --machine=NAME as well as --machine NAME") {
  const Run run =
      course({"plan", source("engine/planner/examples/laptop_char.toml"), "--machine=m1-8gb"});
  expect_status(run, 0);
  expect_text(run, {"m1-8gb"});
  expect_no_text(run, {"unknown option", "m3-max-64gb"});
}

TEST_CASE(
    "twins passes over a python3 on PATH without torch for the system's, and names every Python "
    "it tried") {
  const std::string folder = scratch("twins_path");
  const std::string fake = python_without_torch(folder);
  const Run run =
      run_program({program("course"), "twins", "02"},
                  {.environment = {"MPS_COURSE_PROGRESS=" + folder + "/progress.json",
                                   "MPS_COURSE_PYTHON=", "PATH=" + folder + ":/usr/bin:/bin"},
                   .directory = "",
                   .input = ""});
  const std::string skipped = fake + " (python3 on PATH): " + fake +
                              " (Python 3.0.0) cannot import torch: No module named 'torch'";
  const bool system_python = std::filesystem::exists("/usr/bin/python3");
  const bool system_torch =
      system_python &&
      engine::notebook::run_collecting({"/usr/bin/python3", "-c", "import torch"}).status == 0;
  if (system_torch) {  // Debian's python3-torch: the twins run with it
    expect_status(run, 0);
    CHECK_MESSAGE(said(run).find("Skipped " + skipped) != std::string::npos, run.output);
    CHECK_MESSAGE(said(run).find("on Python 3") != std::string::npos, run.output);
    CHECK_MESSAGE(said(run).find("(/usr/bin/python3)") != std::string::npos, run.output);
    expect_text(run, {"This verified nothing"});
  } else {
    expect_status(run, 1);
    CHECK_MESSAGE(
        said(run).find("no PyTorch found in any Python tried: " + skipped) != std::string::npos,
        run.output);
    if (system_python) expect_text(run, {"/usr/bin/python3 (the system's): "});
  }
  CHECK(!std::filesystem::exists(folder + "/progress.json"));
}

TEST_CASE("twins tries only the Python that MPS_COURSE_PYTHON names, and says so") {
  const std::string folder = scratch("twins_chosen");
  const std::string fake = python_without_torch(folder);
  const Run run = run_program({program("course"), "twins", "02"},
                              {.environment = {"MPS_COURSE_PROGRESS=" + folder + "/progress.json",
                                               "MPS_COURSE_PYTHON=" + fake},
                               .directory = "",
                               .input = ""});
  expect_status(run, 1);
  CHECK_MESSAGE(said(run).find("no PyTorch found in any Python tried: " + fake +
                               " (MPS_COURSE_PYTHON): " + fake +
                               " (Python 3.0.0) cannot import "
                               "torch") != std::string::npos,
                run.output);
  CHECK_MESSAGE(said(run).find("MPS_COURSE_PYTHON names it, so no other Python was tried") !=
                    std::string::npos,
                run.output);
  expect_text(run, {"\n  MPS_COURSE_PYTHON=/path/to/python3 ", "course twins 02\n"});
  expect_no_text(run, {"(the system's)", "(python3 on PATH)"});
}

TEST_CASE("watch's banner fits a narrow terminal") {
  // Lesson 1 verified and its lab passed: the next step is a quiz, so watch verifies nothing
  // before its banner, and waits for a save until the time limit stops it.
  const std::string folder = scratch("watch_banner");
  std::ofstream(folder + "/progress.json")
      << R"({"format": 1, "lessons_verified": {"01": "2026-11-21T10:00:00Z"}, "quizzes": {}, )"
      << R"("labs": {"01_preflight": {"passed_at": "2026-11-21T11:00:00Z", "hints_shown": 0}}})";
  const Run run = engine::notebook::run_collecting(
      {program("course"), "watch"}, std::chrono::seconds(3),
      {.environment = {"NO_COLOR=1", "COLUMNS=60",
                       "MPS_COURSE_PROGRESS=" + folder + "/progress.json"},
       .directory = "",
       .input = ""});
  CHECK(run.stopped);
  CHECK_MESSAGE(said(run).find("Watching your labs (labs/*/lab.cpp, and lab 9's "
                               "labs/09_metal_puzzles/*.metal) and the lessons (lessons/): "
                               "save one to verify it. Ctrl-C stops.") != std::string::npos,
                run.output);
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);)
    CHECK_MESSAGE(engine::notebook::display_width(line) <= 60, line);
}
