// The course command's parts in-process: the build's messages, the learner's lab file, hints,
// the catalog and the next step, the subcommands on a small course of our own (so the tests do
// not depend on the state of anyone's labs), and the file watch.

#include "course.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arguments.h"
#include "build.h"
#include "engine/notebook/terminal_text.h"
#include "file_watch.h"
#include "hints.h"
#include "lab_files.h"
#include "learner_run.h"
#include "subcommand.h"
#include "verification.h"

namespace fs = std::filesystem;
using namespace front_door;
using engine::notebook::Finished;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fresh directory under the system's temporary directory, removed afterwards.
struct TemporaryDirectory {
  fs::path path;
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "front-door-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~TemporaryDirectory() { fs::remove_all(path); }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
};

// A course of two lessons and one lab, with its own progress file: what the subcommands see.
struct SmallCourse {
  TemporaryDirectory top;
  std::istringstream in;
  std::ostringstream out, err;
  std::unique_ptr<Course> course;

  // With `sections`, a third lesson comes in two sections (engine/notebook/lesson_names.h); with
  // `kernels`, a second lab is of Metal kernels, read at run time as lab 9's are.
  explicit SmallCourse(const std::string& input = "", bool sections = false, bool kernels = false)
      : in(input) {
    write(top.path / "lessons/01_first.cpp",
          "// %% [markdown]\n// # Lesson 1 · The first lesson\n");
    write(top.path / "lessons/02_second.cpp",
          "// %% [markdown]\n// # Lesson 2 · The `second` lesson\n");
    if (sections) {
      write(top.path / "lessons/03_third/shared.h",
            "// %% [markdown]\n// # Lesson 3 · The third lesson\n");
      write(top.path / "lessons/03_third/03_2_beta.cpp", "// %% [markdown]\n// # 3.2 · Beta\n");
      write(top.path / "lessons/03_third/03_1_alpha.cpp", "// %% [markdown]\n// # 3.1 · Alpha\n");
      write(top.path / "lessons/03_third/notes.md", "# Not a section\n");
    }
    write(top.path / "labs/01_first/README.md", "# Lab 1 · The first lab\n");
    write(top.path / "labs/01_first/hints.md",
          "# Hints\n\n## A nudge\n\nLook.\n\n## Closer\n\nLook closer.\n");
    const std::string starter = "int f() {\n  TODO(\"1.1\", \"return 1\");\n}\n";
    write(top.path / "labs/01_first/starter/lab.cpp", starter);
    write(top.path / "labs/01_first/lab.cpp", starter);
    if (kernels) {
      write(top.path / "labs/02_kernels/README.md",
            "# Lab 2 · Kernels\n\nAfter lesson 1. Write.\n");
      write(top.path / "labs/02_kernels/hints.md", "# Hints\n\n## A nudge\n\nLook.\n");
      const std::string map = "kernel void map() {\n  TODO(\"2.1\", \"map\");\n}\n";
      const std::string zip = "// zip\nkernel void zip() {\n  TODO(\"2.2\", \"zip\");\n}\n";
      for (const auto& [name, text] : {std::pair{"01_map.metal", map}, {"02_zip.metal", zip}}) {
        write(top.path / "labs/02_kernels/starter" / name, text);
        write(top.path / "labs/02_kernels" / name, text);
      }
      write(top.path / "labs/02_kernels/starter/notes.md", "not a kernel\n");
    }
    fs::create_directories(top.path / "quizzes/banks");
    setenv("MPS_COURSE_PROGRESS", (top.path / "progress.json").c_str(), 1);
    Layout layout{.top = top.path,
                  .build = top.path / "build",
                  .cmake = "cmake",
                  .ninja = {},
                  .lesson_programs = top.path / "build/lessons",
                  .lab_programs = top.path / "build/labs"};
    course = std::make_unique<Course>(layout, in, out, err, false);
  }
  int run(const std::vector<std::string>& args) { return run_course(*course, args); }
  fs::path lab_file() const { return top.path / "labs/01_first/lab.cpp"; }
};

}  // namespace

TEST_CASE(
    "a failed build shows the compiler's messages about the learner's file, without ninja's lines") {
  const std::string top = "/home/learner/course";
  const std::string output =
      "[1/3] Building CXX object labs/CMakeFiles/lab05.dir/05_timing/lab.cpp.o\n"
      "FAILED: labs/CMakeFiles/lab05.dir/05_timing/lab.cpp.o\n"
      "/usr/bin/c++ -I/home/learner/course/labs -O1 -c /home/learner/course/labs/05_timing/lab.cpp\n"
      "/home/learner/course/labs/05_timing/lab.cpp: In function 'double lab::f()':\n"
      "/home/learner/course/labs/05_timing/lab.cpp:12:3: error: 'x' was not declared in this scope\n"
      "   12 |   x = 1;\n"
      "      |   ^\n"
      "ninja: build stopped: subcommand failed.\n";
  const std::string messages = compiler_messages(output, top);
  CHECK(messages ==
        "labs/05_timing/lab.cpp: In function 'double lab::f()':\n"
        "labs/05_timing/lab.cpp:12:3: error: 'x' was not declared in this scope\n"
        "   12 |   x = 1;\n"
        "      |   ^\n");
  CHECK(compiler_messages("CMake Error at CMakeLists.txt:3\n", top) ==
        "CMake Error at CMakeLists.txt:3\n");
  CHECK(compiler_messages(
            "ninja: error: '/home/learner/course/labs/05_timing/lab.cpp', needed by 'x', missing\n",
            top) == "error: 'labs/05_timing/lab.cpp', needed by 'x', missing\n");
}

TEST_CASE("the open TODOs of a lab file are its TODO lines, in order") {
  const TemporaryDirectory dir;
  write(dir.path / "lab.cpp",
        "// TODO(\"0.0\", \"a comment is not a TODO\")\n"
        "int f() {\n"
        "  TODO(\"2.1\", \"ask \\\"which\\\" state\");\n"
        "}\n"
        "  TODO(\"2.2\", \"then this\");\n");
  const auto todos = open_todos(dir.path / "lab.cpp");
  REQUIRE(todos.size() == 2);
  CHECK(todos[0].line == 3);
  CHECK(todos[0].id == "2.1");
  CHECK(todos[0].what == "ask \\\"which\\\" state");
  CHECK(todos[1].line == 5);
  CHECK(open_todos(dir.path / "missing.cpp").empty());
}

TEST_CASE("reset puts the starter back and keeps every version of the learner's file") {
  const TemporaryDirectory dir;
  write(dir.path / "starter.cpp", "starter\n");
  write(dir.path / "lab.cpp", "mine\n");
  const fs::path kept = reset_to_starter(dir.path / "lab.cpp", dir.path / "starter.cpp");
  CHECK(read(kept) == "mine\n");
  CHECK(read(dir.path / "lab.cpp") == "starter\n");
  write(dir.path / "lab.cpp", "mine again\n");
  const fs::path kept_again = reset_to_starter(dir.path / "lab.cpp", dir.path / "starter.cpp");
  CHECK(kept_again != kept);
  CHECK(read(kept) == "mine\n");
  CHECK(read(kept_again) == "mine again\n");
  fs::remove(dir.path / "lab.cpp");
  CHECK(
      reset_to_starter(dir.path / "lab.cpp", dir.path / "starter.cpp").empty());  // nothing to keep
  CHECK(read(dir.path / "lab.cpp") == "starter\n");
}

TEST_CASE("reset keeps no copy of a file that is the starter still") {
  const TemporaryDirectory dir;
  write(dir.path / "starter.cpp", "starter\n");
  write(dir.path / "lab.cpp", "starter\n");
  CHECK(is_starter(dir.path / "lab.cpp", dir.path / "starter.cpp"));
  CHECK(reset_to_starter(dir.path / "lab.cpp", dir.path / "starter.cpp").empty());
  CHECK(read(dir.path / "lab.cpp") == "starter\n");
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 2);
  write(dir.path / "lab.cpp", "starter\n\n");  // one byte more is the learner's
  CHECK_FALSE(is_starter(dir.path / "lab.cpp", dir.path / "starter.cpp"));
  CHECK_FALSE(is_starter(dir.path / "none.cpp", dir.path / "starter.cpp"));
}

TEST_CASE("hints are the sections under ## headings, without the text before them") {
  const TemporaryDirectory dir;
  write(dir.path / "hints.md",
        "# Hints for lab 9\n\nFor authors.\n\n## A nudge\n\nLook.\n\n## Closer\n\nLook closer.\n");
  const auto hints = read_hints(dir.path / "hints.md");
  REQUIRE(hints.size() == 2);
  CHECK(hints[0] == "A nudge\n\nLook.\n");
  CHECK(hints[1] == "Closer\n\nLook closer.\n");
}

TEST_CASE("a number is one or two digits") {
  CHECK(two_digits("5") == "05");
  CHECK(two_digits("05") == "05");
  CHECK_FALSE(two_digits("").has_value());
  CHECK_FALSE(two_digits("123").has_value());
  CHECK_FALSE(two_digits("5x").has_value());
  CHECK_FALSE(two_digits("-1").has_value());
}

TEST_CASE("a lab whose README says it comes after a later lesson is met after that lesson") {
  SmallCourse c("", /*sections=*/true);
  write(c.top.path / "labs/02_later/README.md",
        "# Lab 2 · A later lab\n\nAfter lesson 3. It needs the third lesson.\n");
  write(c.top.path / "labs/02_later/starter/lab.cpp", "int g();\n");
  const Catalog catalog(c.course->layout());
  std::vector<std::string> order;
  for (const Step& step : catalog.path())
    order.push_back((step.kind == StepKind::Lab ? "lab " : "") + step.id);
  CHECK(order == std::vector<std::string>{"01", "lab 01", "02", "03", "lab 02"});
}

TEST_CASE(
    "the course path goes lesson, its lab, the next lesson, and the status names the next step") {
  SmallCourse c;
  const auto path = c.course->catalog().path();
  REQUIRE(path.size() == 3);
  CHECK((path[0].kind == StepKind::Lesson && path[1].kind == StepKind::Lab &&
         path[2].kind == StepKind::Lesson));
  CHECK(c.run({}) == 0);
  CHECK(c.out.str().find("Next: lesson 01 · The first lesson") != std::string::npos);
  c.course->update_progress(
      [](engine::notebook::Progress& p) { p.lessons_verified["01"] = "2026-11-22T10:00:00Z"; });
  c.out.str("");
  CHECK(c.run({"status"}) == 0);
  std::string status = c.out.str();  // wrapped to the terminal: compared as one line
  std::replace(status.begin(), status.end(), '\n', ' ');
  CHECK(
      status.find(
          "Next: lab 01 · The first lab. Edit labs/01_first/lab.cpp (1 TODO open, the first on line 2)") !=
      std::string::npos);
  c.course->update_progress(
      [](engine::notebook::Progress& p) { p.labs["01_first"].passed_at = "2026-11-22T11:00:00Z"; });
  c.out.str("");
  CHECK(c.run({"list"}) == 0);
  CHECK(c.out.str().find("01 · The first lab") != std::string::npos);
  CHECK(c.out.str().find("passed 2026-11-22") != std::string::npos);
  CHECK(c.out.str().find("verified 2026-11-22\n") !=
        std::string::npos);  // a file from before machines
  c.course->update_progress(
      [](engine::notebook::Progress& p) { p.lessons_verified_on["01"] = "m1-8gb"; });
  c.out.str("");
  CHECK(c.run({"list"}) == 0);
  CHECK(c.out.str().find("verified 2026-11-22 on m1-8gb") != std::string::npos);
}

TEST_CASE(
    "a lesson in sections counts as verified when every section is, and the next step names the "
    "first section not verified") {
  SmallCourse c("", true);
  const LessonInfo* third = c.course->catalog().lesson("03");
  REQUIRE(third != nullptr);
  CHECK(third->title == "The third lesson");
  CHECK(third->file == c.top.path / "lessons/03_third/shared.h");
  REQUIRE(third->sections.size() == 2);
  CHECK(third->sections[0].number == "03.1");
  CHECK(third->sections[1].title == "Beta");
  CHECK(c.course->catalog().lesson("03.2") == &third->sections[1]);
  CHECK(c.course->catalog().lesson("03.3") == nullptr);
  CHECK(c.course->catalog().lesson("02.1") == nullptr);
  c.course->update_progress([](engine::notebook::Progress& p) {
    for (const char* number : {"01", "02"}) p.lessons_verified[number] = "2026-11-22T10:00:00Z";
    p.labs["01_first"].passed_at = "2026-11-22T11:00:00Z";
  });
  CHECK(c.run({"status"}) == 0);  // none of its sections yet: the whole lesson
  CHECK(c.out.str().find("Next: lesson 03 · The third lesson") != std::string::npos);
  CHECK(c.out.str().find("course run 03\n") != std::string::npos);
  c.out.str("");
  c.course->update_progress(
      [](engine::notebook::Progress& p) { p.lessons_verified["03.1"] = "2026-11-22T10:00:00Z"; });
  CHECK(c.run({"list"}) == 0);
  CHECK(c.out.str().find("03 · The third lesson") != std::string::npos);
  CHECK(c.out.str().find("1 of 2 sections verified") != std::string::npos);
  c.out.str("");
  CHECK(c.run({"status"}) == 0);
  CHECK(c.out.str().find("lessons 2 of 3 verified") != std::string::npos);
  CHECK(c.out.str().find("Next: lesson 03.2 · Beta") != std::string::npos);
  CHECK(c.out.str().find("course run 03.2") != std::string::npos);
  c.course->update_progress([](engine::notebook::Progress& p) {
    p.lessons_verified["03.2"] = "2026-11-23T10:00:00Z";
    p.lessons_verified_on["03.2"] = "m1-8gb";
  });
  c.out.str("");
  CHECK(c.run({"list"}) == 0);
  CHECK(c.out.str().find("verified 2026-11-23 on m1-8gb") != std::string::npos);
  c.out.str("");
  CHECK(c.run({"status"}) == 0);
  CHECK(c.out.str().find("lessons 3 of 3 verified") != std::string::npos);
}

TEST_CASE("a section is named by its lesson's number and its digit, and a wrong one is refused") {
  CHECK(lesson_or_section("8.2") == "08.2");
  CHECK(lesson_or_section("08.2") == "08.2");
  CHECK(lesson_or_section("8") == "08");
  CHECK_FALSE(lesson_or_section("8.").has_value());
  CHECK_FALSE(lesson_or_section("8.0").has_value());
  CHECK_FALSE(lesson_or_section("8.12").has_value());
  CHECK_FALSE(lesson_or_section(".2").has_value());
  SmallCourse c("", true);
  CHECK(c.run({"run", "3.3"}) == kUsageError);
  CHECK(c.err.str().find("'3.3' is not a section of lesson 03; its sections: 03.1, 03.2") !=
        std::string::npos);
  c.err.str("");
  CHECK(c.run({"twins", "2.1"}) == kUsageError);
  CHECK(c.err.str().find("lesson 02 has no sections") != std::string::npos);
}

TEST_CASE("titles are shown without their Markdown marks, and the status fits the terminal") {
  setenv("COLUMNS", "40", 1);
  SmallCourse c;
  unsetenv("COLUMNS");
  CHECK(c.course->catalog().lesson("02")->title == "The second lesson");
  CHECK(c.run({}) == 0);
  std::istringstream lines(c.out.str());
  for (std::string line; std::getline(lines, line);) {
    CHECK_MESSAGE(engine::notebook::display_width(line) <= 40, line);
  }
}

TEST_CASE("each hint is shown once more per call and counted in the progress file") {
  SmallCourse c;
  CHECK(c.run({"hint", "1"}) == 0);
  CHECK(c.out.str().find("hint 1 of 2 · A nudge") != std::string::npos);
  CHECK(c.course->progress().labs["01_first"].hints_shown == 1);
  CHECK(c.run({"hint"}) == 0);  // the lab the learner is on
  CHECK(c.out.str().find("hint 2 of 2 · Closer") != std::string::npos);
  CHECK(c.out.str().find("That is the last hint.") != std::string::npos);
  CHECK(c.run({"hint", "01"}) == 0);
  CHECK(c.course->progress().labs["01_first"].hints_shown == 2);
}

TEST_CASE("a hint that cannot be counted in the progress file is shown, and the exit says so") {
  SmallCourse c;
  // The progress file reads as empty, and cannot be written: a folder is where its lock goes.
  fs::create_directories(c.top.path / "progress.json.lock");
  CHECK(c.run({"hint", "1"}) == kNotSaved);
  CHECK(c.out.str().find("hint 1 of 2 · A nudge") != std::string::npos);
  CHECK(c.err.str().find("course: your progress was not saved:") != std::string::npos);
}

TEST_CASE("reset asks first, and keeps the learner's file when told yes") {
  {
    SmallCourse c("n\n");
    write(c.lab_file(), "mine\n");
    CHECK(c.run({"reset", "01"}) == kFailed);
    CHECK(c.out.str().find("Nothing changed.") != std::string::npos);
    CHECK(read(c.lab_file()) == "mine\n");
  }
  {
    SmallCourse c("");  // no answer at all: nothing changes either
    write(c.lab_file(), "mine\n");
    CHECK(c.run({"reset", "01"}) == kFailed);
    CHECK(read(c.lab_file()) == "mine\n");
  }
  SmallCourse c("yes\n");
  write(c.lab_file(), "mine\n");
  CHECK(c.run({"reset", "1"}) == 0);
  CHECK(read(c.lab_file()) == read(c.top.path / "labs/01_first/starter/lab.cpp"));
  const std::string out = c.out.str();
  const auto at = out.find("kept as");  // then a space or, wrapped, a line break
  REQUIRE(at != std::string::npos);
  const auto from = out.find_first_not_of(" \n", at + 7);
  const std::string kept = out.substr(from, out.find(".cpp", from) + 4 - from);
  CHECK(read(c.top.path / kept) == "mine\n");
}

TEST_CASE("reset of an untouched starter changes nothing and says so, without asking") {
  SmallCourse c;  // its lab.cpp is the starter, as the course copies it
  CHECK(c.run({"reset", "01"}) == 0);
  std::string out = c.out.str();  // wrapped to the terminal: compared as one line
  std::replace(out.begin(), out.end(), '\n', ' ');
  CHECK(out ==
        "labs/01_first/lab.cpp is the starter still, as it came: nothing to reset, and nothing "
        "kept. ");
  CHECK(std::distance(fs::directory_iterator(c.lab_file().parent_path()),
                      fs::directory_iterator()) == 4);  // README.md, hints.md, starter/, lab.cpp
}

TEST_CASE("reset of a missing lab file asks to copy the starter there, and keeps nothing") {
  SmallCourse c("y\n");
  fs::remove(c.lab_file());
  CHECK(c.run({"reset", "01"}) == 0);
  const std::string out = c.out.str();
  CHECK(out.find("There is no labs/01_first/lab.cpp. Copy the starter there? [y/N] ") == 0);
  CHECK(out.find("kept") == std::string::npos);
  CHECK(out.find("labs/01_first/lab.cpp is the starter now.\n") != std::string::npos);
  CHECK(read(c.lab_file()) == read(c.top.path / "labs/01_first/starter/lab.cpp"));
}

TEST_CASE("reset's question and answer fit a narrow terminal") {
  setenv("COLUMNS", "40", 1);
  SmallCourse c("yes\n");
  unsetenv("COLUMNS");
  write(c.lab_file(), "mine\n");
  CHECK(c.run({"reset", "01"}) == 0);
  std::string out = c.out.str();
  // The learner's Enter ends the question's line on a terminal; here the answer follows it.
  const auto asked = out.find("[y/N] ");
  REQUIRE(asked != std::string::npos);
  out.insert(asked + 6, "\n");
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("lab.kept-") != std::string::npos) continue;  // a path stays whole
    CHECK_MESSAGE(engine::notebook::display_width(line) <= 40, line);
  }
  std::replace(out.begin(), out.end(), '\n', ' ');
  CHECK(out.find("Put labs/01_first/lab.cpp back to the starter? Your file will be kept beside "
                 "it. [y/N]") != std::string::npos);
  CHECK(out.find("labs/01_first/lab.cpp is the starter again. Your version is kept as "
                 "labs/01_first/lab.kept-") != std::string::npos);
}

TEST_CASE("a slip of a subcommand's name is answered with the command meant, not the whole help") {
  SmallCourse c;
  CHECK(c.run({"hints", "01"}) == kUsageError);
  CHECK(c.err.str() ==
        "course: no subcommand 'hints'. Did you mean hint?\n"
        "  build/course hint 01\n"
        "build/course --help lists every subcommand.\n");
  CHECK(c.out.str().empty());
  for (const std::vector<std::string>& slip : std::vector<std::vector<std::string>>{
           {"verfy", "verify"}, {"Run", "run"}, {"wacth", "watch"}, {"twin", "twins"}}) {
    SmallCourse other;
    CHECK(other.run({slip[0]}) == kUsageError);
    CHECK_MESSAGE(other.err.str().find("Did you mean " + slip[1] + "?\n  build/course " + slip[1] +
                                       "\n") != std::string::npos,
                  other.err.str());
  }
  SmallCourse help;
  CHECK(help.run({"help", "hints"}) == kUsageError);
  CHECK(help.err.str().find("course help: no subcommand 'hints'. Did you mean hint?\n"
                            "  build/course help hint\n") == 0);
  SmallCourse far;  // nothing close: the whole help
  CHECK(far.run({"test"}) == kUsageError);
  CHECK(far.err.str().find("Did you mean") == std::string::npos);
  CHECK(far.err.str().find("course reset NN") != std::string::npos);
}

TEST_CASE("an option's value may follow an equals sign") {
  CHECK(split_option_values({"plan", "a.toml", "--machine=m1-8gb", "--json", "--sweep=batch"},
                            {"--machine", "--sweep"}) ==
        Arguments{"plan", "a.toml", "--machine", "m1-8gb", "--json", "--sweep", "batch"});
  CHECK(split_option_values({"--json=yes", "--machine="}, {"--machine"}) ==
        Arguments{"--json=yes", "--machine", ""});
  SmallCourse c;
  CHECK(c.run({"twins", "01", "--machine=nosuch"}) == kUsageError);
  CHECK(c.err.str().find("unknown machine 'nosuch'; --list-machines lists them all") !=
        std::string::npos);
  SmallCourse slip;
  CHECK(slip.run({"twins", "01", "--machine", "m1-8g"}) == kUsageError);
  CHECK(slip.err.str().find("unknown machine 'm1-8g'; did you mean m1-8gb?") != std::string::npos);
}

TEST_CASE("bad input is refused with what is wrong and the usage") {
  SmallCourse c;
  CHECK(c.run({"verify", "9"}) == kUsageError);
  CHECK(c.err.str().find("'9' is not a lab's number; labs: 01") != std::string::npos);
  CHECK(c.run({"verify", "x"}) == kUsageError);
  CHECK(c.run({"verify", "1", "2"}) == kUsageError);
  CHECK(c.run({"verify", "1", "--variant", "nonsense"}) == kUsageError);
  CHECK(c.err.str().find("lab 01 has no version 'nonsense'") != std::string::npos);
  CHECK(c.run({"verify", "--variant"}) == kUsageError);
  CHECK(c.run({"run"}) == kUsageError);
  CHECK(c.run({"run", "7"}) == kUsageError);
  CHECK(c.err.str().find("'7' is not a lesson's number; lessons: 01, 02") != std::string::npos);
  CHECK(c.run({"reset"}) == kUsageError);
  CHECK(c.run({"reset", "1", "--force"}) == kUsageError);
  CHECK(c.run({"list", "extra"}) == kUsageError);
  CHECK(c.run({"watch", "extra"}) == kUsageError);
  CHECK(c.run({"frobnicate"}) == kUsageError);
  CHECK(c.err.str().find("no subcommand 'frobnicate'") != std::string::npos);
  CHECK(c.err.str().find("usage: course verify [NN]") != std::string::npos);
}

TEST_CASE(
    "each subcommand answers --help with its usage, except where the program it runs has its own") {
  for (const Subcommand* s : subcommands()) {
    if (s->forwards_help) continue;
    SmallCourse c;
    CHECK_MESSAGE(c.run({std::string(s->name), "--help"}) == 0, s->name);
    CHECK(c.out.str().find("usage: course " + std::string(s->usage)) == 0);
    CHECK(c.err.str().empty());
  }
  SmallCourse plan;
  CHECK(plan.run({"plan", "-h"}) == 0);
  CHECK(plan.out.str().find("engine/planner/examples/") !=
        std::string::npos);  // where to start from
}

TEST_CASE("the front door's README lists every subcommand") {
  std::ifstream file(TUTOR_SOURCE_DIR "/engine/course/README.md");
  const std::string readme((std::istreambuf_iterator<char>(file)), {});
  REQUIRE(!readme.empty());
  for (const Subcommand* s : subcommands()) {
    const std::string name(s->name);  // the default subcommand is written "course [status]"
    CHECK_MESSAGE((readme.find("\ncourse " + name) != std::string::npos ||
                   readme.find("\ncourse [" + name + "]") != std::string::npos),
                  name);
  }
}

TEST_CASE("course help SUBCOMMAND is that subcommand's --help") {
  for (const Subcommand* s : subcommands()) {
    SmallCourse asked, flagged;
    const int status = asked.run({"help", std::string(s->name)});
    CHECK_MESSAGE(status == flagged.run({std::string(s->name), "--help"}), s->name);
    CHECK_MESSAGE(asked.out.str() == flagged.out.str(), s->name);
  }
  SmallCourse plan;
  CHECK(plan.run({"help", "plan"}) == 0);
  CHECK(plan.out.str().find("engine/planner/examples/") != std::string::npos);
  SmallCourse unknown;
  CHECK(unknown.run({"help", "frobnicate"}) == kUsageError);
  CHECK(unknown.err.str().find("course help: no subcommand 'frobnicate'") != std::string::npos);
}

TEST_CASE("a program that did not finish gets a verdict that says how it ended") {
  SmallCourse small;
  Course& course = *small.course;
  const auto said = [&] {
    std::string text = small.out.str();  // wrapped to the terminal: compared as one line
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
  };
  SUBCASE("a crash before any check names the signal") {
    CHECK(explain_unfinished(course, {.finished = {.status = 128 + 11, .output = "Lab 05\n"}},
                             "Your lab", "check"));
    CHECK(said() ==
          "✘ Your lab crashed (Segmentation fault, signal 11) before its first check ran. ");
  }
  SUBCASE("a crash the program has described is not described twice") {
    CHECK(explain_unfinished(
        course,
        {.finished = {.status = 128 + 11, .output = "your code crashed with a segmentation fault"},
         .running = "the check 'x'"},
        "Your lab", "check"));
    CHECK(said().empty());
  }
  SUBCASE("the course's own time limit says what to look for") {
    CHECK(explain_unfinished(course, {.finished = {.status = 128 + 9, .stopped = true}},
                             "Lesson 05", "cell"));
    CHECK(said() == "✘ Lesson 05 ran for " + std::to_string(learner_program_limit().count()) +
                        " s without finishing and was stopped. Look for a loop whose condition "
                        "never changes. ");
  }
  SUBCASE("a kill that is not the course's is most often the system's, for memory") {
    CHECK(explain_unfinished(course,
                             {.finished = {.status = 128 + 9}, .running = "the cell 'sweep'"},
                             "Lesson 06", "cell"));
    CHECK(said().find("✘ Lesson 06 was killed (SIGKILL) while the cell 'sweep' ran. The system "
                      "kills a program so when memory runs out") == 0);
  }
  SUBCASE("a program that finished needs no explanation") {
    CHECK_FALSE(explain_unfinished(course,
                                   {.finished = {.status = 1, .output = "✘ 1 of 5 checks fail."},
                                    .last_word = "done checks=5 failed=1"},
                                   "Your lab", "check"));
    CHECK(said().empty());
  }
  SUBCASE("a program that ended with no last word ended early, whatever its status") {
    CHECK(explain_unfinished(course, {.finished = {.status = 0}, .running = "the check 'x'"},
                             "Your lab", "check"));
    CHECK(said().find("✘ Your lab ended (exit status 0) while the check 'x' ran, before its "
                      "checks had all reported.") == 0);
  }
}

TEST_CASE("a missing lab file is named, with the command that brings the starter back") {
  SmallCourse c;
  fs::remove(c.lab_file());
  CHECK(c.run({"verify", "01"}) == kFailed);
  CHECK(c.out.str().find(
            "labs/01_first/lab.cpp is missing. build/course reset 01 puts the starter back.") !=
        std::string::npos);
}

TEST_CASE("the file watch reports the files saved, whether written in place or renamed over") {
  const TemporaryDirectory dir;
  write(dir.path / "a.cpp", "a\n");
  write(dir.path / "b.cpp", "b\n");
  FileWatch watch({dir.path / "a.cpp", dir.path / "b.cpp"});
  CHECK(watch.wait(std::chrono::milliseconds(50)).empty());
  std::thread in_place([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    write(dir.path / "b.cpp", "b, saved\n");
  });
  auto changed = watch.wait(std::chrono::seconds(5));
  in_place.join();
  CHECK((changed == std::vector<fs::path>{dir.path / "b.cpp"}));
  std::thread renamed([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    write(dir.path / "a.cpp.swp", "a, saved\n");
    fs::rename(dir.path / "a.cpp.swp", dir.path / "a.cpp");
  });
  changed = watch.wait(std::chrono::seconds(5));
  renamed.join();
  CHECK((changed == std::vector<fs::path>{dir.path / "a.cpp"}));
}

TEST_CASE(
    "the file watch reports a deleted file, and keeps watching a folder removed and restored") {
  const TemporaryDirectory dir;
  const fs::path file = dir.path / "lab/lab.cpp";
  write(file, "mine\n");
  FileWatch watch({file});
  const auto after_a_moment = [](const std::function<void()>& change) {
    return std::thread([change] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      change();
    });
  };
  std::thread deleted = after_a_moment([&] { fs::remove(file); });
  CHECK((watch.wait(std::chrono::seconds(5)) == std::vector<fs::path>{file}));
  deleted.join();
  std::thread folder_removed = after_a_moment([&] { fs::remove_all(dir.path / "lab"); });
  CHECK(watch.wait(std::chrono::milliseconds(500)).empty());  // the file was gone already
  folder_removed.join();
  std::thread restored = after_a_moment([&] { write(file, "mine, restored\n"); });
  CHECK((watch.wait(std::chrono::seconds(5)) == std::vector<fs::path>{file}));
  restored.join();
  std::thread saved = after_a_moment([&] { write(file, "mine, saved in the restored folder\n"); });
  CHECK((watch.wait(std::chrono::seconds(5)) == std::vector<fs::path>{file}));
  saved.join();
}

TEST_CASE("a lab of Metal kernels is its starter's .metal files, read when its program runs") {
  SmallCourse c("", false, true);
  const LabInfo& lab = *c.course->catalog().lab("02");
  CHECK(lab.files == std::vector<std::string>{"01_map.metal", "02_zip.metal"});
  CHECK(lab.read_at_run_time());
  CHECK_FALSE(c.course->catalog().lab("01")->read_at_run_time());
  CHECK(c.course->catalog().lab("01")->files == std::vector<std::string>{"lab.cpp"});
}

TEST_CASE("the open TODOs of a lab of kernels are each file's, file by file") {
  SmallCourse c("", false, true);
  const LabInfo& lab = *c.course->catalog().lab("02");
  const std::vector<LabTodo> todos = open_todos(lab);
  REQUIRE(todos.size() == 2);
  CHECK(todos[0].file == lab.dir / "01_map.metal");
  CHECK(todos[0].todo.id == "2.1");
  CHECK(todos[1].file == lab.dir / "02_zip.metal");
  CHECK(todos[1].todo.line == 3);
  write(lab.dir / "01_map.metal", "kernel void map() {}\n");
  REQUIRE(open_todos(lab).size() == 1);
  CHECK(open_todos(lab).front().todo.id == "2.2");
  CHECK(c.run({"list"}) == 0);
  CHECK(c.out.str().find("1 TODO open") != std::string::npos);
}

TEST_CASE("the digest of a lab of kernels changes with each of its files") {
  SmallCourse c("", false, true);
  const LabInfo& lab = *c.course->catalog().lab("02");
  const std::string before = digest_on_disk(lab);
  write(lab.dir / "02_zip.metal", read(lab.dir / "02_zip.metal") + "\n");
  const std::string after = digest_on_disk(lab);
  CHECK(after != before);
  write(lab.dir / "01_map.metal", read(lab.dir / "01_map.metal") + "\n");
  CHECK(digest_on_disk(lab) != after);
  fs::remove(lab.dir / "01_map.metal");
  CHECK_THROWS_AS(digest_on_disk(lab), harness::DecoyError);
}

TEST_CASE("reset of a lab of kernels puts back each changed file, keeping it beside") {
  SmallCourse c("yes\n", false, true);
  const fs::path dir = c.top.path / "labs/02_kernels";
  write(dir / "02_zip.metal", "mine\n");
  CHECK(c.run({"reset", "02"}) == 0);
  std::string out = c.out.str();
  std::replace(out.begin(), out.end(), '\n', ' ');
  CHECK(out.find("Put labs/02_kernels/02_zip.metal back to the starter? Your file will be kept "
                 "beside it. [y/N]") != std::string::npos);
  CHECK(read(dir / "02_zip.metal") == read(dir / "starter/02_zip.metal"));
  std::vector<std::string> kept;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".kept-") != std::string::npos) kept.push_back(name);
  }
  REQUIRE(kept.size() == 1);  // the untouched 01_map.metal is not kept
  CHECK(kept.front().starts_with("02_zip.kept-"));
  CHECK(kept.front().ends_with(".metal"));
  CHECK(read(dir / kept.front()) == "mine\n");

  SmallCourse untouched("", false, true);
  CHECK(untouched.run({"reset", "02"}) == 0);
  std::string said = untouched.out.str();
  std::replace(said.begin(), said.end(), '\n', ' ');
  CHECK(said ==
        "The files of labs/02_kernels are the starters still, as they came: nothing to reset, "
        "and nothing kept. ");
}

TEST_CASE("a lab comes after the lesson its README names, or else after the lesson of its number") {
  SmallCourse c("", false, true);
  std::vector<std::string> order;
  for (const Step& step : c.course->catalog().path())
    order.push_back((step.kind == StepKind::Lab ? "lab " : "") + step.id);
  // Lab 2's README says "After lesson 1."; lab 1's says nothing.
  CHECK(order == std::vector<std::string>{"01", "lab 01", "lab 02", "02"});
  CHECK(c.course->catalog().lab("02")->after_lesson == "01");
  CHECK(c.course->catalog().lab("01")->after_lesson == "01");
}
