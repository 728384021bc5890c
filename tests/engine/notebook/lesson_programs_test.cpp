// The lesson programs end to end, as a learner runs them: fixtures with deliberate mistakes, the
// options, the environment variables PyTorch reads, and runs that cannot be recorded.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "end_to_end.h"
#include "engine/notebook/text_file.h"

using namespace end_to_end;

namespace {

std::string fixture(std::string_view name) {
  return source("tests/engine/notebook/fixtures/" + std::string(name) + ".cpp");
}

std::string read(const std::string& path) {
  return engine::notebook::read_text_file(path, 1 << 20);
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A copy of `lesson` with its first `from` replaced by `to`, in this test's scratch folder.
std::string edited_copy(const std::string& lesson, std::string_view from, std::string_view to,
                        std::string_view name) {
  std::string text = read(lesson);
  const std::size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, lesson << " has no line " << from);
  text.replace(at, from.size(), to);
  const std::string copy = scratch(name) + "/" + std::filesystem::path(lesson).filename().string();
  write(copy, text);
  return copy;
}

// The progress path of a run whose recording is under test, in a folder of its own.
struct OwnProgress {
  std::string folder, file;
  explicit OwnProgress(std::string_view name)
      : folder(scratch(name)), file(folder + "/progress.json") {}
  Surroundings surroundings(std::vector<std::string> more = {}) const {
    more.push_back("MPS_COURSE_PROGRESS=" + file);
    return {.environment = more, .directory = folder, .input = ""};
  }
};

}  // namespace

// Mistakes a lesson's author makes, and how verification reports them.

TEST_CASE(
    "a wrong documented output fails verification at the line that differs, naming the cell with a diff") {
  const Run run = run_program({program("wrong_output_lesson"), "--verify", "--cell", "arithmetic"});
  expect_failure(run);
  expect_text(run, {fixture("wrong_output_lesson") +
                        ":16: ERROR: cell 'arithmetic' printed something other than its "
                        "documented output on m3-max-64gb",
                    "- 2 + 2 = 5", "+ 2 + 2 = 4", "  checked: True"});
}

TEST_CASE("a cell that raises fails with the error Python would print") {
  const Run run = run_program({program("wrong_output_lesson"), "--verify", "--cell", "raises"});
  expect_failure(run);
  expect_text(run, {"AssertionError: Torch not compiled with CUDA enabled"});
}

TEST_CASE("a correct cell passes even in a lesson with failing cells") {
  const Run run = run_program({program("wrong_output_lesson"), "--verify", "--cell", "fine"});
  expect_status(run, 0);
  expect_text(run, {"test cases: 1 | 1 passed"});
}

TEST_CASE("the notebook view shows each failure under its cell and exits non-zero") {
  const Run run = run_program({program("wrong_output_lesson")});
  expect_failure(run);
  expect_text(run, {"A lesson whose documentation is wrong", "  2 + 2 = 4", "- 2 + 2 = 5",
                    "raised AssertionError: Torch not compiled with CUDA enabled",
                    "✘ 3 of 4 cells failed on m3-max-64gb: arithmetic, raises, wrong_device",
                    "details for one cell: wrong_output_lesson --verify --cell arithmetic"});
}

TEST_CASE("a failed check on engine types shows the values, not {?}") {
  const Run run =
      run_program({program("wrong_output_lesson"), "--verify", "--cell", "wrong_device"});
  expect_failure(run);
  expect_text(run, {"CHECK( mps:0 == cpu )", "CHECK( (2, 3) == (3, 2) )",
                    "CHECK( torch.float32 == torch.int64 )"});
  expect_no_text(run, {"{?}"});
}

TEST_CASE("a malformed lesson refuses to run and names the file and line") {
  const Run run = run_program({program("malformed_lesson"), "--list-tests"});
  expect_status(run, 2);
  expect_text(run, {fixture("malformed_lesson") +
                    ":15: error: unterminated output block (started at line 13)"});
}

TEST_CASE("a lesson edited since its program was built is refused with advice to rebuild") {
  const std::string copy = edited_copy(fixture("wrong_output_lesson"), "// %% [markdown]",
                                       "// one new line\n// %% [markdown]", "edited_lesson");
  const Run run = run_program({program("wrong_output_lesson"), "--source", copy, "--list-cells"});
  expect_status(run, 2);
  expect_text(run, {"the lesson changed since this program was built; rebuild it"});
}

// compare="..." may name only machines the lessons document outputs for, and an output block may
// be documented only for them (engine/notebook/documented_machines.h).
TEST_CASE("a machine the lessons do not document is refused where a cell names it") {
  const std::string documented =
      "documented machines: m3-max-64gb, m1-8gb, intel-mac-macos12.0, m2-max-macos13.7, linux-x86_64, rosetta-x86_64";
  const std::string fine = "// %% fine compare=\"linux-x86_64\"";
  const std::string output = "// %% [output] machine=\"linux-x86_64\"";
  struct Case {
    std::string what, from, to, error;
  };
  for (
      const Case& c : {
          Case{"unknown machine", fine, "// %% fine compare=\"m4\"",
               ":23: error: compare names 'm4', which the lessons document no output for; " +
                   documented},
          Case{"host", fine, "// %% fine compare=\"host\"",
               ":23: error: compare names 'host', which the lessons document no output for"},
          Case{"undocumented", "// %% wrong_device", "// %% wrong_device compare=\"m4-16gb\"",
               ":32: error: compare names 'm4-16gb', which the lessons document no output for"},
          Case{
              "output for a chip of the cost model", output, "// %% [output] machine=\"m4-16gb\"",
              ":29: error: output cannot be documented for 'm4-16gb': the lessons document m3-max-64gb, m1-8gb"},
          Case{"output for host", output, "// %% [output] machine=\"host\"",
               ":29: error: output cannot be documented for 'host'"},
      }) {
    CAPTURE(c.what);
    const std::string copy = edited_copy(fixture("wrong_output_lesson"), c.from, c.to, "compare");
    const Run run = run_program({program("wrong_output_lesson"), "--source", copy, "--list-cells"});
    expect_status(run, 2);
    expect_text(run, {c.error});
  }
}

// Prose never contradicts the screen (engine/notebook/prose_values.h).
TEST_CASE("a number the prose quotes from an output is the one this machine's run printed") {
  // Lesson 1 once set a 12 MiB batch beside 64 GiB on every machine, the 16 GiB Intel Mac too.
  for (const auto& machine_and_memory :
       {std::pair{"m3-max-64gb", "64"}, std::pair{"intel-mac-macos12.0", "16"},
        std::pair{"linux-x86_64", "24"}}) {
    // named, not bound: clang 14 cannot capture a structured binding in CAPTURE's lambda
    const char* machine = machine_and_memory.first;
    const char* memory = machine_and_memory.second;
    CAPTURE(machine);
    const Run run =
        run_program({program("lesson01"), "--machine", machine},
                    {.environment = {"COLUMNS=200", "NO_COLOR=1"}, .directory = "", .input = ""});
    expect_status(run, 0);
    expect_text(run,
                {std::string("system memory: ") + memory + " GiB",
                 std::string("Twelve MiB is nothing next to this machine's ") + memory + " GiB"});
  }
}

TEST_CASE("prose about another machine quotes that machine's output, which the run shows too") {
  // On the M1, section 8.1 still discusses the M3 Max's first iteration and MFU, and shows the
  // M3 Max's documented output under the M1's own.
  const Run run =
      run_program({program("lesson08_1"), "--machine", "m1-8gb"},
                  {.environment = {"COLUMNS=200", "NO_COLOR=1"}, .directory = "", .input = ""});
  expect_status(run, 0);
  expect_text(run,
              {"iteration 0: 146.93 s", "└▷ documented for m3-max-64gb", "iteration 0: 26.65 s",
               "On the M3 Max: 26.65 s, 3 % above the measured 25.86 s", "achieved: 5.16 TFLOPS",
               "is 5.16 TFLOPS", "the same step reaches 36 %"});
}

TEST_CASE("a lesson whose prose states a number no output of its machines prints is refused") {
  // The sentence lesson 4 once had, beside outputs of 4.71 and 2.25 ms on the M3 Max.
  const std::string copy = edited_copy(
      source("lessons/04_cpu_fallback.cpp"),
      "// On the M3 Max the detour stretches a step from\n"
      "// {{fallback_step_time@m3-max-64gb:rewritten as embedding + mean:}} ms to\n"
      "// {{fallback_step_time@m3-max-64gb:with the cpu fallback:}} ms, more than doubling it.",
      "// On the M3 Max the detour adds 2.4 ms to a 2.8 ms step, almost doubling it.\n//\n//",
      "stated_number");
  const Run run = run_program({program("lesson04"), "--source", copy, "--list-tests"});
  expect_status(run, 2);
  expect_text(run, {"04_cpu_fallback.cpp:400: error: the prose states 2.4 ms, which an output may "
                    "print otherwise on another machine"});
}

TEST_CASE("a requires=\"mps\" cell documents no output for a machine without MPS") {
  // Lesson 5's one explicit guard documents its line for machines without MPS; marked
  // requires="mps" in a copy (same line numbers), the lesson is refused, naming the block.
  const std::string copy =
      edited_copy(source("lessons/05_timing_and_synchronization/05_1_timing_gpu_work.cpp"),
                  "// %% naive_vs_synchronized compare=",
                  "// %% naive_vs_synchronized requires=\"mps\" compare=", "requires_mps_block");
  const Run run = run_program({program("lesson05_1"), "--source", copy, "--list-tests"});
  expect_status(run, 2);
  expect_text(
      run,
      {"error: cell 'naive_vs_synchronized' requires mps, which intel-mac-macos12.0 has not: there it "
       "prints \"no mps device here: this cell needs MPS\" without running; document no output for it"});
}

TEST_CASE(
    "a requires=\"mps\" cell prints the standard line instead of running where MPS is unavailable") {
  const Run run = run_program(
      {program("lesson05_1"), "--cell", "warm_up", "--machine", "rosetta-x86_64", "--minimal"});
  expect_status(run, 0);
  expect_text(run, {"no mps device here: this cell needs MPS\n"});
  expect_no_text(run, {"cold:"});
}

TEST_CASE("a lesson in sections opens with its shared file, in its first section only") {
  const Run first = run_program({program("lesson05_1")});
  expect_status(first, 0);
  expect_text(first, {"Lesson 5 · Timing and synchronization", "struct IssueEncoder {",
                      "5.1 · Timing GPU work", "#include \"shared.h\""});
  const Run second = run_program({program("lesson05_2")});
  expect_status(second, 0);
  expect_text(second, {"5.2 · Sync points in a training loop", "#include \"shared.h\""});
  expect_no_text(second, {"Lesson 5 · Timing and synchronization", "struct IssueEncoder {"});
  const Run one_cell = run_program({program("lesson05_1"), "--cell", "warm_up"});
  expect_no_text(one_cell, {"struct IssueEncoder {"});
}

TEST_CASE("the tests' cache sizes are named when malformed and ignored when empty") {
  const Run malformed = run_program(
      {program("lesson01"), "--list-machines"},
      {.environment = {"MPS_COURSE_TEST_CACHE_KIB=48,2048"}, .directory = "", .input = ""});
  expect_status(malformed, 2);
  expect_text(malformed, {"MPS_COURSE_TEST_CACHE_KIB must be three sizes in KiB, L1,L2,L3 (for "
                          "example 48,2048,32768), not '48,2048'"});
  const Run empty =
      run_program({program("lesson01"), "--list-machines"},
                  {.environment = {"MPS_COURSE_TEST_CACHE_KIB="}, .directory = "", .input = ""});
  expect_status(empty, 0);
  expect_text(empty, {"m3-max-64gb"});
}

// A learner's cell that crashes or never ends.

TEST_CASE("a cell that crashes is named in the notebook, with what its signal means") {
  if (kUnderAddressSanitizer) return skip("AddressSanitizer reports the crash in its own words");
  const Run run = run_program({program("runaway_lesson"), "--cell", "writes_through_null"},
                              {.environment = {"RUNAWAY_CRASH=1"}, .directory = "", .input = ""});
  expect_failure(run);
  expect_text(run, {"┌ writes_through_null",
                    "the cell crashed with a segmentation fault (SIGSEGV: memory read or written"});
}

TEST_CASE("a cell that never ends is stopped at the time limit, naming the cell") {
  const Run run = run_program(
      {program("runaway_lesson"), "--cell", "never_ends"},
      {.environment = {"RUNAWAY_LOOP=1", "MPS_COURSE_TIME_LIMIT=1"}, .directory = "", .input = ""});
  expect_status(run, 124);
  expect_text(run, {"┌ never_ends", "✘ Stopped after 1 s: cell 'never_ends' was still running."});
}

TEST_CASE("a time limit that is no number of seconds in range is refused, naming the range") {
  for (const std::string limit : {"357913942", "0", "-5", "ten", "10s"}) {
    const Run run = run_program({program("runaway_lesson"), "--cell", "never_ends"},
                                {.environment = {"MPS_COURSE_TIME_LIMIT=" + limit}});
    expect_status(run, 2);
    expect_text(run, {"MPS_COURSE_TIME_LIMIT=" + limit +
                      " is not a time limit: give whole seconds from 1 to 86400"});
  }
}

TEST_CASE("the runaway fixture's cells pass when nothing tells them to run away") {
  const Run run = run_program({program("runaway_lesson"), "--verify"});
  expect_status(run, 0);
  expect_text(run, {"test cases: 2 | 2 passed"});
}

// The options.

TEST_CASE("an unknown machine is refused with the machines it is a slip of or the start of") {
  struct Case {
    std::string typed, said;
  };
  for (const Case& c :
       {Case{"m4", "did you mean m4-16gb, m4-pro-24gb or m4-max-128gb? Every configuration sold"},
        Case{"m1-8g", "did you mean m1-8gb?"}, Case{"m3-max-46gb", "did you mean m3-max-64gb?"},
        Case{"m3-max-30gpu-36gb", "did you mean m3-max-14cpu-30gpu-36gb?"},
        Case{"m3-max-14cpu-30gpu-32gb", "did you mean m3-max-14cpu-30gpu-36gb?"},
        Case{"m4-pro-14",
             "did you mean m4-pro-14cpu-20gpu-24gb, m4-pro-14cpu-20gpu-48gb or "
             "m4-pro-14cpu-20gpu-64gb?"},
        Case{"m2-ultra", "; 6 configurations sold start so: --list-machines lists them"},
        Case{"nosuch", "; --list-machines lists them all"}}) {
    CAPTURE(c.typed);
    const Run run = run_program({program("wrong_output_lesson"), "--machine", c.typed});
    expect_status(run, 2);
    expect_text(
        run, {"unknown machine '" + c.typed + "'" + (c.said.starts_with(";") ? "" : "; "), c.said});
  }
}

TEST_CASE("an unknown cell is refused with the list of cells") {
  const Run run = run_program({program("wrong_output_lesson"), "--cell", "nope"});
  expect_status(run, 2);
  expect_text(
      run,
      {"no code cell named 'nope' runs in this lesson; cells: arithmetic, raises, fine, wrong_device"});
}

TEST_CASE("a bad option is refused with a pointer to --help") {
  const Run run = run_program({program("wrong_output_lesson"), "--colour"});
  expect_status(run, 2);
  expect_text(run, {"Try 'wrong_output_lesson --help'."});
}

TEST_CASE("an option where a value belongs is refused, and no file named after it is written") {
  const std::string folder = scratch("option_as_value");
  const Run run = run_program({program("lesson05_1"), "--trace", "--minimal"},
                              {.environment = {}, .directory = folder, .input = ""});
  expect_status(run, 2);
  expect_text(run, {"--trace needs a value, not the option '--minimal'"});
  CHECK_FALSE(std::filesystem::exists(folder + "/--minimal"));
}

TEST_CASE("--cell needs a cell name, not an option") {
  const Run run = run_program({program("lesson02"), "--cell", "--minimal"});
  expect_status(run, 2);
  expect_text(run, {"--cell needs a value, not the option '--minimal'"});
}

TEST_CASE("several --cell options run each of those cells, in the lesson's order") {
  const Run run = run_program(
      {program("lesson02"), "--cell", "device_index", "--cell", "sanity_check", "--minimal"});
  expect_status(run, 0);
  expect_text(run, {"output shape: (2, 2)\nrequested: mps\n"});
}

TEST_CASE("an empty --cell, --trace or --source is refused, and nothing is recorded") {
  for (const std::string option : {"cell", "trace", "source"}) {
    CAPTURE(option);
    const OwnProgress progress("empty_option");
    const Run run =
        run_program({program("lesson02"), "--" + option + "="}, progress.surroundings());
    expect_status(run, 2);
    expect_text(run, {"lesson02: --" + option + " needs"});
    CHECK_FALSE(std::filesystem::exists(progress.file));
  }
}

TEST_CASE("--source of a directory, /dev/null or /dev/zero cannot be read") {
  // /dev/zero once ran out of memory (std::bad_alloc).
  const std::string folder = source("tests/engine/notebook");
  const Run directory = run_program({program("lesson02"), "--source", folder});
  expect_status(directory, 2);
  expect_text(directory, {folder + ": error: cannot read the lesson: it is a directory"});
  for (const std::string device : {"/dev/null", "/dev/zero"}) {
    const Run run = run_program({program("lesson02"), "--source", device});
    expect_status(run, 2);
    expect_text(run, {device + ": error: cannot read the lesson: it is not a regular file"});
  }
}

TEST_CASE("--help describes every option") {
  const Run run = run_program({program("lesson02"), "--help"});
  expect_status(run, 0);
  expect_text(run, {"--machine NAME", "--list-machines", "--cell NAME", "--verify", "--minimal",
                    "--color WHEN"});
}

TEST_CASE("--glossary shows the course's glossary from any lesson, and from any section") {
  for (const char* lesson : {"lesson04", "lesson05_2"}) {
    const Run run = run_program({program(lesson), "--glossary"});
    expect_status(run, 0);
    expect_text(run,
                {"Glossary\n════════", "roofline", "MFU (model FLOP utilisation)", "private pool"});
  }
}

TEST_CASE("colour is off when NO_COLOR is set, and --color always colours the notebook") {
  const Run plain = run_program({program("lesson01"), "--cell", "ticket_batch_bytes"});
  expect_status(plain, 0);
  expect_no_text(plain, {"\x1b["});
  const Run coloured =
      run_program({program("lesson01"), "--cell", "ticket_batch_bytes", "--color", "always"});
  expect_status(coloured, 0);
  expect_text(coloured, {"\x1b["});
}

TEST_CASE(
    "an output line wider than the terminal continues on the next line, marked, with its spacing kept") {
  const Run run = run_program({program("lesson07_2"), "--cell", "when_to_move"},
                              {.environment = {"COLUMNS=70"}, .directory = "", .input = ""});
  expect_status(run, 0);
  expect_text(run, {"  leaking          -> remote memory grew 40% over ten epochs: find the",
                    "  ↪ retained tensors, then plan a dedicated host"});
}

// Machines.

TEST_CASE(
    "--list-machines lists the documented machines first, marks the default, and fits the terminal") {
  const Run run = run_program({program("lesson02"), "--list-machines"},
                              {.environment = {"COLUMNS=60"}, .directory = "", .input = ""});
  expect_status(run, 0);
  expect_text(run,
              {"Machines the lessons document (--machine NAME):\n  m3-max-64gb  ", "[default]",
               "m1-8gb", "intel-mac-macos12.0", "linux-x86_64", "rosetta-x86_64  ",
               "\n\nAlso simulated, each compared with the documented machine", "m4-16gb", "host",
               "\n\nEvery Apple-silicon Mac configuration sold", "  m1-8cpu-7gpu-{8,16}gb\n",
               "  m3-max-14cpu-30gpu-{36,96}gb\n", "  m4-max-14cpu-32gpu-36gb\n"});
}

TEST_CASE(
    "a configuration sold runs a lesson by its name, compared with the closest documented Mac") {
  const Run run = run_program({program("lesson02"), "--machine", "m3-max-14cpu-30gpu-36gb"});
  expect_status(run, 0);
  expect_text(run, {"no output is documented for m3-max-14cpu-30gpu-36gb"});
}

TEST_CASE(
    "a machine the lessons document is compared with its own documentation, untagged outputs included") {
  const Run run = run_program({program("lesson02"), "--machine", "m1-8gb"});
  expect_status(run, 0);
  expect_text(run, {"✔ 4 cells ran on m1-8gb and printed their documented output."});
  expect_no_text(run, {"no output is documented"});
}

#ifdef __linux__
TEST_CASE(
    "on a Linux computer, --machine host is compared with linux-x86_64 and lesson 2 matches it") {
  const Run run = run_program({program("lesson02"), "--machine", "host"});
  expect_status(run, 0);
  expect_text(run, {"no output is documented for host: compared with linux-x86_64's",
                    "✔ 4 cells ran on host: 4 printed what linux-x86_64 documents."});
  expect_no_text(run, {"this computer printed something other"});
}
#endif

TEST_CASE(
    "a machine the lessons document nothing for is compared with the closest documented one, without failing or verifying") {
  const OwnProgress progress("closest_machine");
  const Run run =
      run_program({program("lesson04"), "--machine", "m4-16gb"}, progress.surroundings());
  expect_status(run, 0);
  expect_text(
      run,
      {"no output is documented for m4-16gb: compared with m1-8gb's",
       "m4-16gb printed something other than m1-8gb's documented output:\n  (- documented, + printed)\n",
       "✔ 6 cells ran on m4-16gb: 5 printed what m1-8gb documents;",
       "The lessons document no output for m4-16gb, so this run does not verify the"});
  CHECK_FALSE(std::filesystem::exists(progress.file));
}

TEST_CASE(
    "lesson 2 prints the seed's four lines on the default machine, and what real PyTorch prints on Linux") {
  const Run mac = run_program({program("lesson02"), "--cell", "sanity_check", "--minimal"});
  expect_status(mac, 0);
  expect_text(
      mac, {"mps built: True\nmps available: True\nselected device: mps\noutput shape: (2, 2)\n"});
  const Run linux = run_program(
      {program("lesson02"), "--machine", "linux-x86_64", "--cell", "sanity_check", "--minimal"});
  expect_status(linux, 0);
  expect_text(
      linux,
      {"mps built: False\nmps available: False\nselected device: cpu\noutput shape: (2, 2)\n"});
}

TEST_CASE("lesson 1 prints the batch budget") {
  const Run run = run_program({program("lesson01"), "--cell", "ticket_batch_bytes", "--minimal"});
  expect_status(run, 0);
  expect_text(run, {"one float32 batch: 12.0 MiB"});
}

TEST_CASE("a cell marked compare shows the other machines' documented output under its own") {
  const Run run =
      run_program({program("wrong_output_lesson"), "--cell", "fine", "--cell", "arithmetic"});
  expect_failure(run);
  expect_text(
      run,
      {"└▶ this run, on m3-max-64gb\n  fine\n└▷ documented for linux-x86_64\n  fine without mps\n",
       "└▶\n  checked: True\n"});
}

TEST_CASE("--compare shows every other machine's documented output under every cell") {
  const Run run = run_program({program("lesson02"), "--cell", "sanity_check", "--compare"});
  expect_status(run, 0);
  expect_text(
      run,
      {"└▶ this run, on m3-max-64gb\n  mps built: True\n",
       "└▷ documented for intel-mac-macos12.0, m2-max-macos13.7\n  mps built: True\n  mps available: False\n",
       "└▷ documented for linux-x86_64, rosetta-x86_64\n  mps built: False\n"});
}

TEST_CASE("on another machine, the comparison leaves out that machine's own output") {
  const Run run = run_program(
      {program("lesson02"), "--cell", "sanity_check", "--compare", "--machine", "linux-x86_64"});
  expect_status(run, 0);
  expect_text(run, {"└▷ documented for m3-max-64gb, m1-8gb\n"});
  expect_no_text(run, {"documented for linux-x86_64"});
}

// The environment variables PyTorch reads, read as PyTorch reads them.

TEST_CASE(
    "lesson 4 shows the missing operator with PYTORCH_ENABLE_MPS_FALLBACK unset or set: that cell starts its process without it") {
  for (const std::string value : {"0", "1"}) {
    CAPTURE(value);
    const Run run = run_program(
        {program("lesson04"), "--cell", "without_fallback", "--minimal"},
        {.environment = {"PYTORCH_ENABLE_MPS_FALLBACK=" + value}, .directory = "", .input = ""});
    expect_status(run, 0);
    expect_text(
        run,
        {"NotImplementedError: The operator 'aten::_embedding_bag' is not currently implemented for the MPS device."});
    expect_no_text(run, {"UserWarning"});
  }
}

TEST_CASE(
    "a lesson started with PYTORCH_ENABLE_MPS_FALLBACK=false dies at import torch, as Python on a Mac does") {
  const Run run = run_program(
      {program("lesson01"), "--cell", "ticket_batch_bytes", "--minimal"},
      {.environment = {"PYTORCH_ENABLE_MPS_FALLBACK=false"}, .directory = "", .input = ""});
  expect_failure(run);
  expect_text(
      run,
      {"libc++abi: terminating due to uncaught exception of type std::invalid_argument: stoi: no conversion"});
}

TEST_CASE("lesson 6 started with only the high watermark lowered fails at the first allocation") {
  const Run run = run_program(
      {program("lesson06_1"), "--cell", "mps_allocator_check", "--minimal"},
      {.environment = {"PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.7"}, .directory = "", .input = ""});
  expect_failure(run);
  expect_text(run, {"RuntimeError: invalid low watermark ratio 1.4"});
}

// Nothing is recorded as verified unless everything the run was asked to write was written.

TEST_CASE(
    "a trace file that cannot be created is refused before the lesson runs, and nothing is recorded") {
  const OwnProgress progress("trace_not_created");
  const std::string trace = progress.folder + "/no/such/directory/trace.json";
  const Run run =
      run_program({program("lesson02"), "--minimal", "--trace", trace}, progress.surroundings());
  expect_status(run, 2);
  expect_text(run,
              {"lesson02: cannot write the trace to " + trace + ": No such file or directory"});
  expect_no_text(run, {"mps built"});
  CHECK_FALSE(std::filesystem::exists(progress.file));
}

#ifdef __linux__
TEST_CASE("a trace that cannot be written is an error, and the run is not recorded as verified") {
  const OwnProgress progress(
      "trace_not_written");  // /dev/full: every write fails as on a full disk
  const Run run = run_program({program("lesson02"), "--minimal", "--trace", "/dev/full"},
                              progress.surroundings());
  expect_status(run, 4);
  expect_text(run, {"lesson02: cannot write the trace to /dev/full: No space left on device"});
  expect_no_text(run, {"wrote the trace"});
  CHECK_FALSE(std::filesystem::exists(progress.file));
}

TEST_CASE("a trace past the file-size limit is an error, and the run is not recorded as verified") {
  const OwnProgress progress("trace_past_limit");
  const std::string trace = progress.folder + "/trace.json";
  const Run run = run_program({"sh", "-c", "ulimit -f 1; exec \"$0\" \"$@\"", program("lesson02"),
                               "--minimal", "--trace", trace},
                              progress.surroundings());
  expect_status(run, 4);
  expect_text(run, {"lesson02: cannot write the trace to " + trace + ": File too large"});
  CHECK_FALSE(std::filesystem::exists(progress.file));
}

// A whole lesson whose run cannot be recorded still shows every cell, then says that the run was
// not recorded, exits with status 4, and leaves what is at the progress path as it was.
TEST_CASE(
    "a verified run that cannot be recorded (a FIFO, a read-only folder, a full disk) says so, exits 4 and changes nothing") {
  const std::string not_recorded =
      "every cell printed its documented output, but the run could not be recorded as verified";
  // A valid progress file of several KiB: it is what the run must not damage.
  std::string labs;
  for (int n = 10; n <= 60; ++n) {
    labs += (labs.empty() ? "" : ", ") +
            ("\"" + std::to_string(n) +
             "_a_lab_with_a_long_name\": {\"passed_at\": \"\", \"hints_shown\": 1}");
  }
  const std::string valid =
      "{\"format\": 1, \"lessons_verified\": {\"01\": \"2026-11-21T10:00:00Z\"}, \"quizzes\": {}, \"labs\": {" +
      labs + "}}\n";
  auto left_behind = [](const std::string& folder) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      const std::string name = entry.path().filename().string();
      if (name.find(".corrupt-") != std::string::npos || name.find(".tmp-") != std::string::npos)
        return name;
    }
    return std::string();
  };

  SUBCASE("a FIFO at the progress path (once, the run waited forever for a writer)") {
    const OwnProgress progress("fifo");
    REQUIRE(mkfifo(progress.file.c_str(), 0644) == 0);
    const Run run = run_program({program("lesson02"), "--minimal"}, progress.surroundings());
    expect_status(run, 4);
    expect_text(run,
                {not_recorded, "is a FIFO (named pipe), not a regular file; it is left as it is"});
    struct stat after {};
    CHECK((stat(progress.file.c_str(), &after) == 0 && S_ISFIFO(after.st_mode)));
    CHECK(left_behind(progress.folder).empty());
  }
  SUBCASE("the progress file's folder cannot be written") {
    const OwnProgress progress("read_only");
    write(progress.file, valid);
    std::filesystem::permissions(
        progress.folder, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    std::vector<std::string> argv{program("lesson02"), "--minimal"};
    // Root may write anywhere; without these capabilities it obeys the folder's permissions.
    if (geteuid() == 0)
      argv.insert(argv.begin(),
                  {"setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"});
    const Run run = run_program(argv, progress.surroundings());
    std::filesystem::permissions(progress.folder, std::filesystem::perms::owner_all);
    expect_status(run, 4);
    expect_text(run, {not_recorded, "Permission denied"});
    CHECK(read(progress.file) == valid);
    CHECK(left_behind(progress.folder).empty());
  }
  SUBCASE("writes fail past 1 KiB, as on a full file system") {
    const OwnProgress progress("full_disk");
    write(progress.file, valid);
    // The limit's signal (SIGXFSZ) kills a program by default: the lesson must turn it into a
    // write that fails. Once, it died here instead of exiting 4.
    const Run run = run_program(
        {"sh", "-c", "ulimit -f 1; exec \"$0\" \"$@\"", program("lesson02"), "--minimal"},
        progress.surroundings());
    expect_status(run, 4);
    expect_text(run, {not_recorded, "File too large"});
    CHECK(read(progress.file) == valid);
    CHECK(left_behind(progress.folder).empty());
  }
}
#endif

// The set-up script.

TEST_CASE("setup --help explains the options and does nothing else") {
  const Run run = run_program({source("setup"), "--help"});
  expect_status(run, 0);
  expect_text(run, {"Usage: ./setup", "--deps-only", "--with-test-tools"});
  expect_no_text(run, {"==>"});
}

TEST_CASE("setup refuses an unknown option before doing anything") {
  const Run run = run_program({source("setup"), "--frobnicate"});
  expect_status(run, 2);
  expect_text(run, {"setup: unknown option '--frobnicate' (try ./setup --help)"});
  expect_no_text(run, {"==>"});
}
