// A verdict on the learner's own file must never be false: it is for the bytes on disk, it is a
// pass only when every check reported, and it comes within bounds of time, memory and output
// whatever the code does. The course here is the test's own, in the build tree
// (tests/engine/course/CMakeLists.txt): lab 91, whose lab.cpp each test writes and which is built
// as a learner's lab is, with lab 1's tests; lab 92, lab 9's tests over Metal kernels its program
// reads as it runs, from the folder the test writes; and lesson 91, an edited lesson. The course
// command's parts run in-process on the real build tree.

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "course.h"
#include "end_to_end.h"
#include "process_ended.h"
#include "subcommand.h"
#include "verification.h"

namespace fs = std::filesystem;
using namespace front_door;

namespace {

const fs::path kTop = TUTOR_VERDICT_COURSE;
const fs::path kLabFile = kTop / "labs/91_verdicts/lab.cpp";
const fs::path kKernelLab = kTop / "labs/92_kernels";
// Where the course runs lab 92's program from: a script of the test's (kernel_lab_runs).
const fs::path kKernelLabCommand = fs::path(TUTOR_VERDICT_PROGRAMS) / "lab92";

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// Lab 1's reference solution with `in_check` run first in batch_bytes (the lab's third check) and
// `at_top` put before its own includes.
std::string solution_with(const std::string& in_check, const std::string& at_top = "") {
  std::string text = read(end_to_end::source("labs/01_preflight/solution/lab.cpp"));
  const std::string opening =
      "std::int64_t batch_bytes(torch::IntArrayRef shape, torch::ScalarType dtype) {\n";
  text.insert(text.find(opening) + opening.size(), in_check);
  text.insert(text.find("#include"), at_top);
  return text;
}

// A version that answers the third check wrongly.
std::string wrong_answer() { return solution_with("  return 0;\n"); }

// Whether this host enforces an address-space limit: qemu-user, which runs the arm64 build's
// tests, accepts one and ignores it; and under AddressSanitizer the course sets none.
bool memory_limits_enforced() {
  if (end_to_end::kUnderAddressSanitizer) return false;
#if defined(__APPLE__)
  return false;  // macOS accepts an address-space limit and does not enforce it
#endif
  rlimit original{};
  getrlimit(RLIMIT_AS, &original);
  rlimit probe = original;
  probe.rlim_cur = original.rlim_cur == RLIM_INFINITY ? rlim_t{1} << 40 : original.rlim_cur - 1;
  setrlimit(RLIMIT_AS, &probe);
  rlimit seen{};
  getrlimit(RLIMIT_AS, &seen);
  setrlimit(RLIMIT_AS, &original);
  return seen.rlim_cur == probe.rlim_cur;
}

// Lab 9's kernels in `version` (starter, solution), in name order.
std::vector<fs::path> puzzle_kernels(const std::string& version) {
  std::vector<fs::path> kernels;
  for (const auto& entry :
       fs::directory_iterator(end_to_end::source("labs/09_metal_puzzles/" + version)))
    if (entry.path().extension() == ".metal") kernels.push_back(entry.path());
  std::sort(kernels.begin(), kernels.end());
  return kernels;
}

// Lab 92's kernels become `version`'s of lab 9.
void kernels_are(const std::string& version) {
  for (const fs::path& kernel : puzzle_kernels(version))
    write(kKernelLab / kernel.filename(), read(kernel));
}

// What the course runs as lab 92's program: the program, then, with `save_meanwhile`, the
// starter's first kernel saved over the learner's, before the course looks at the files again.
void kernel_lab_runs(bool save_meanwhile) {
  std::string script = "#!/bin/sh\n\"" TUTOR_KERNEL_LAB_PROGRAM "\" \"$@\"\nstatus=$?\n";
  if (save_meanwhile) {
    const fs::path first = puzzle_kernels("starter").front();
    script += "cp '" + first.string() + "' '" + (kKernelLab / first.filename()).string() + "'\n";
  }
  write(kKernelLabCommand, script + "exit $status\n");
  fs::permissions(kKernelLabCommand, fs::perms::owner_all);
}

// The course of lab 91, lab 92 and lesson 91, with a progress file of its own that starts empty, and
// the learner's lab.cpp holding `code`.
struct VerdictCourse {
  std::istringstream in;
  std::ostringstream out, err;
  std::unique_ptr<Course> course;

  explicit VerdictCourse(const std::string& code) {
    write(kTop / "labs/91_verdicts/README.md", "# Lab 91 · Verdicts\n");
    write(kTop / "labs/91_verdicts/hints.md", "# Hints\n\n## One\n\nA.\n\n## Two\n\nB.\n");
    write(kTop / "labs/91_verdicts/starter/lab.cpp",
          read(end_to_end::source("labs/01_preflight/starter/lab.cpp")));
    write(kTop / "lessons/91_edited_lesson.cpp",
          read(end_to_end::source("tests/engine/course/fixtures/91_edited_lesson.cpp")));
    write(kKernelLab / "README.md", "# Lab 92 · Kernels\n");
    write(kKernelLab / "hints.md", "# Hints\n\n## One\n\nA.\n\n## Two\n\nB.\n");
    for (const fs::path& kernel : puzzle_kernels("starter"))
      write(kKernelLab / "starter" / kernel.filename(), read(kernel));
    kernels_are("starter");
    kernel_lab_runs(false);
    fs::create_directories(kTop / "quizzes/banks");
    fs::remove(kLabFile);  // what another test left there, which may be a FIFO or a link
    write(kLabFile, code);
    progress_in(kTop / "progress.json");
    fs::remove(kTop / "progress.json");
    const Layout layout{.top = kTop,
                        .build = TUTOR_BINARY_DIR,
                        .cmake = TUTOR_CMAKE_COMMAND,
                        .ninja = TUTOR_NINJA,
                        .lesson_programs = TUTOR_VERDICT_PROGRAMS,
                        .lab_programs = TUTOR_VERDICT_PROGRAMS};
    course = std::make_unique<Course>(layout, in, out, err, false);
  }

  static void progress_in(const fs::path& file) { setenv("MPS_COURSE_PROGRESS", file.c_str(), 1); }
  // A progress file that reads as empty and cannot be written: a folder is where its lock goes.
  static void unwritable_progress() {
    fs::create_directories(kTop / "unwritable/progress.json.lock");
    progress_in(kTop / "unwritable/progress.json");
  }

  Verdict verify(const std::string& lab = "91") {
    out.str("");
    return verify_lab(*course, *course->catalog().lab(lab));
  }
  std::string list() {
    out.str("");
    run_course(*course, {"list"});
    return said();
  }
  engine::notebook::LabRecord record(const std::string& lab = "91_verdicts") {
    return course->progress().labs[lab];
  }

  // What it said, however the terminal wrapped it: each line break as a space.
  std::string said() const {
    std::string text = out.str();
    for (char& c : text) c = c == '\n' ? ' ' : c;
    return text;
  }
  bool says(const std::string& text) const { return said().find(text) != std::string::npos; }
};

}  // namespace

TEST_CASE("a verdict is for the bytes on disk, however old the file's time says they are") {
  VerdictCourse c(solution_with(""));
  CHECK(c.verify() == Verdict::Passed);
  // A build tool that goes by times takes the program for up to date: the file is older.
  write(kLabFile, wrong_answer());
  fs::last_write_time(kLabFile, fs::file_time_type::clock::now() - std::chrono::hours(1));
  CHECK_MESSAGE(c.verify() == Verdict::Failed, c.out.str());
  CHECK_MESSAGE(c.says("✘ a batch's bytes count the width of each element"), c.out.str());
  CHECK_FALSE(c.says("✔ Lab 91 passes"));
}

TEST_CASE("a file saved while its checks run is checked again, and the verdict is the new one's") {
  // The third check saves the file with a wrong answer, as an editor would during the run.
  VerdictCourse c(
      solution_with("  static bool saved = false;\n"
                    "  if (!saved) std::ofstream(__FILE__) << R\"saved(" +
                        wrong_answer() + ")saved\";\n  saved = true;\n",
                    "#include <fstream>\n"));
  CHECK_MESSAGE(c.verify() == Verdict::Failed, c.out.str());
  CHECK(read(kLabFile) == wrong_answer());
  CHECK_FALSE(c.says("✔ Lab 91 passes"));
  REQUIRE(c.record().last_check.has_value());
  CHECK_FALSE(c.record().last_check->passed);
  CHECK(c.record().passed_at.empty());
}

TEST_CASE(
    "a kernel saved while its checks run is checked again, and the verdict is the new one's") {
  VerdictCourse c(solution_with(""));
  kernels_are("solution");
  CHECK_MESSAGE(c.verify("92") == Verdict::Passed, c.out.str());  // as they are: a pass

  kernel_lab_runs(/*save_meanwhile=*/true);  // the first run reads the solution's kernels
  c.course->update_progress([](engine::notebook::Progress& p) { p.labs.erase("92_kernels"); });
  CHECK_MESSAGE(c.verify("92") == Verdict::Failed, c.out.str());
  const fs::path first = puzzle_kernels("starter").front();
  CHECK(read(kKernelLab / first.filename()) == read(first));
  CHECK_FALSE(c.says("✔ Lab 92 passes"));
  REQUIRE(c.record("92_kernels").last_check.has_value());
  CHECK_FALSE(c.record("92_kernels").last_check->passed);
  CHECK(c.record("92_kernels").passed_at.empty());
}

TEST_CASE("code that ends the program before its checks report is no pass") {
  VerdictCourse c(solution_with("  std::exit(0);\n", "#include <cstdlib>\n"));
  CHECK_MESSAGE(c.verify() == Verdict::Failed, c.out.str());
  CHECK_MESSAGE(c.says("✘ Your lab ended (exit status 0) while the check 'a batch's bytes count "
                       "the width of each element' ran, before its checks had all reported."),
                c.out.str());
  CHECK_FALSE(c.says("✔ Lab 91 passes"));
  CHECK(c.record().passed_at.empty());

  write(
      kLabFile,
      solution_with(
          "", "#include <cstdlib>\n[[maybe_unused]] static const int ends = (std::exit(0), 0);\n"));
  CHECK_MESSAGE(c.verify() == Verdict::Failed, c.out.str());
  CHECK_MESSAGE(c.says("✘ Your lab ended (exit status 0) before its first check ran"), c.out.str());
}

TEST_CASE("a process the learner's code leaves running holds up no verdict, and is ended") {
  VerdictCourse c(
      solution_with("  static bool forked = false;\n"
                    "  if (!forked) {\n"
                    "    forked = true;\n"
                    "    const pid_t child = fork();\n"
                    "    if (child == 0) { sleep(60); _exit(0); }\n"
                    "    std::printf(\"left a sleeper: %d\\n\", static_cast<int>(child));\n"
                    "  }\n",
                    "#include <unistd.h>\n#include <cstdio>\n"));
  const auto start = std::chrono::steady_clock::now();
  CHECK_MESSAGE(c.verify() == Verdict::Passed, c.out.str());
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
  const std::string out = c.out.str();
  const auto at = out.find("left a sleeper: ");
  REQUIRE(at != std::string::npos);
  CHECK(process_ends_soon(static_cast<pid_t>(std::stol(out.substr(at + 16)))));
}

TEST_CASE("a program killed as the system kills one out of memory is said to be so") {
  VerdictCourse c(solution_with("  raise(SIGKILL);\n", "#include <csignal>\n"));
  CHECK_MESSAGE(c.verify() == Verdict::Failed, c.out.str());
  CHECK_MESSAGE(c.says("✘ Your lab was killed (SIGKILL) while the check 'a batch's bytes count the "
                       "width of each element' ran. The system kills a program so when memory runs "
                       "out"),
                c.out.str());
}

TEST_CASE("code that takes memory without end is stopped at the lab's limit, which it names") {
  if (!memory_limits_enforced()) return end_to_end::skip("this build sets no memory limit");
  VerdictCourse c(solution_with(
      // Memory asked for, never touched: the limit is on what a program asks for.
      "  static std::vector<std::unique_ptr<char[]>> hoard;  // kept from one call to the next\n"
      "  for (;;) hoard.emplace_back(new char[std::size_t{1} << 26]);\n",
      "#include <memory>\n#include <vector>\n"));
  CHECK_MESSAGE(c.verify() == Verdict::Failed, c.out.str());
  CHECK_MESSAGE(
      c.says("Your code threw std::bad_alloc: out of memory: a lab program may use 2 GiB"),
      c.out.str());
}

TEST_CASE("of a flood of output, the verdict shows the start and the end, and says it was cut") {
  VerdictCourse c(solution_with(
      "  static bool flooded = false;\n"
      "  for (int i = 0; !flooded && i < 2000000; ++i) std::printf(\"line %d of a flood\\n\", i);\n"
      "  flooded = true;\n",
      "#include <cstdio>\n"));
  CHECK_MESSAGE(c.verify() == Verdict::Passed, c.out.str().substr(0, 2000));
  CHECK(c.out.str().size() < (std::size_t{1} << 20));
  CHECK(c.says("MiB of output cut here"));
  CHECK(c.says("✔ All 3 checks pass."));
}

TEST_CASE("a lab file that is no regular file is refused at once, and listed as such") {
  VerdictCourse c(solution_with(""));
  fs::remove(kLabFile);
  REQUIRE(mkfifo(kLabFile.c_str(), 0644) == 0);
  CHECK(c.verify() == Verdict::Missing);
  CHECK_MESSAGE(c.says("✘ labs/91_verdicts/lab.cpp cannot be read: it is a FIFO (named pipe), not "
                       "a regular file."),
                c.out.str());
  CHECK(c.list().find("lab.cpp cannot be read: it is a FIFO") != std::string::npos);
  fs::remove(kLabFile);
  fs::create_symlink("/dev/zero", kLabFile);
  CHECK(c.verify() == Verdict::Missing);
  CHECK_MESSAGE(c.says("cannot be read: it is not a regular file."), c.out.str());
  fs::remove(kLabFile);
}

TEST_CASE(
    "a file that includes /dev/zero does not compile: g++ stops at its memory limit, clang at the link") {
  if (!memory_limits_enforced()) return end_to_end::skip("this build sets no memory limit");
  VerdictCourse c("#include \"/dev/zero\"\n");
  CHECK(c.verify() == Verdict::DoesNotCompile);
#if defined(__clang__)
  // This test is built by the compiler that builds the labs. clang reads a device file as an
  // empty one, so the file defines nothing and the link stops instead: still no pass.
  CHECK_MESSAGE(c.says("labs/91_verdicts/lab.cpp does not compile."), c.out.str());
  CHECK_MESSAGE(c.says("An undefined symbol is a function that lab.h declares"), c.out.str());
#else
  CHECK_MESSAGE(c.says("compiling this file took more than the 1 GiB of memory a compile may use"),
                c.out.str());
#endif
}

TEST_CASE("a pass that cannot be recorded says so, and verify exits with 4") {
  VerdictCourse c(solution_with(""));
  VerdictCourse::unwritable_progress();
  CHECK(run_course(*c.course, {"verify", "91"}) == kNotSaved);
  CHECK_MESSAGE(c.says("✔ Lab 91 passes. ✘ The pass is not recorded: your progress could not be "
                       "saved (above)."),
                c.out.str());
  CHECK(c.err.str().find("your progress was not saved") != std::string::npos);
}

TEST_CASE("list says whether the file passes now, fails now, or was edited since its check") {
  VerdictCourse c(solution_with(""));
  CHECK(c.verify() == Verdict::Passed);
  CHECK_MESSAGE(c.list().find(", passes now") != std::string::npos, c.out.str());
  const auto written = fs::last_write_time(kTop / "progress.json");
  CHECK(c.verify() == Verdict::Passed);  // the same file again: nothing new to write
  CHECK(fs::last_write_time(kTop / "progress.json") == written);
  write(kLabFile, wrong_answer());
  CHECK_MESSAGE(c.list().find(", not checked since your last edit") != std::string::npos,
                c.out.str());
  CHECK(c.verify() == Verdict::Failed);
  CHECK_MESSAGE(c.list().find("passed " + c.record().passed_at.substr(0, 10) + ", fails now") !=
                    std::string::npos,
                c.out.str());
}

TEST_CASE(
    "an edited lesson is verified only when its run was recorded, and a failed cell shown plainly") {
  VerdictCourse c(solution_with(""));
  const LessonInfo& lesson = *c.course->catalog().lesson("91");
  setenv("VERDICT_EXIT", "1", 1);  // its cell ends the program
  const Verdict ended = verify_lesson(*c.course, lesson);
  unsetenv("VERDICT_EXIT");
  CHECK_MESSAGE(ended == Verdict::Failed, c.out.str());
  CHECK_MESSAGE(c.says("✘ Lesson 91 ended (exit status 0) while the cell 'ends_early' ran"),
                c.out.str());
  CHECK_FALSE(c.says("verified"));

  c.out.str("");
  setenv("VERDICT_WRONG", "1", 1);  // its cell prints something else
  const Verdict wrong = verify_lesson(*c.course, lesson);
  unsetenv("VERDICT_WRONG");
  CHECK(wrong == Verdict::Failed);
  CHECK_MESSAGE(c.says("ERROR: cell 'ends_early' printed something other than its documented "
                       "output on m3-max-64gb"),
                c.out.str());
  CHECK_MESSAGE(c.says("✘ Lesson 91: a cell no longer prints its documented output."), c.out.str());
  CHECK_FALSE(c.says("[doctest]"));  // the framework's own lines say nothing to a learner
  CHECK_FALSE(c.says("====="));

  c.out.str("");
  VerdictCourse::unwritable_progress();
  CHECK_MESSAGE(verify_lesson(*c.course, lesson) == Verdict::NotRecorded, c.out.str());
  CHECK(c.says("✘ Lesson 91 is not recorded as verified: your progress could not be written"));

  c.out.str("");
  VerdictCourse::progress_in(kTop / "progress.json");
  CHECK_MESSAGE(verify_lesson(*c.course, lesson) == Verdict::Passed, c.out.str());
  CHECK(c.says("It counts as verified."));
  CHECK(c.course->progress().lessons_verified.count("91") == 1);
}
