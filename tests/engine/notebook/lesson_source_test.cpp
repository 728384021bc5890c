#include "engine/notebook/lesson_source.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/notebook/lesson_names.h"
#include "scratch_directory.h"

using engine::notebook::Cell;
using engine::notebook::CellKind;
using engine::notebook::FormatError;
using engine::notebook::LessonSource;
using engine::notebook::parse_lesson;

namespace {

constexpr const char* kLesson = R"(// %% [markdown]
// # A title
//
// Some `prose`.

// %%
#include <cstdio>

// %% first_cell
TUTOR_CELL("prints two lines") {
  print("a");
  print("b");
}
// %% [output]
// a
//
// %% [output] machine="linux-x86_64,rosetta-x86_64"
// other

// %% helper_cell
int helper() { return 1; }
)";

// The line and message of the error parsing `text` reports.
std::string error_at(const std::string& text) {
  try {
    parse_lesson(text, "lesson.cpp");
  } catch (const FormatError& e) {
    return std::to_string(e.line()) + ": " + e.message();
  }
  return "no error";
}

}  // namespace

TEST_CASE("the parser splits a lesson into prose and code cells in source order") {
  const LessonSource lesson = parse_lesson(kLesson, "lesson.cpp");
  REQUIRE(lesson.cells.size() == 4);
  CHECK(lesson.cells[0].kind == CellKind::Markdown);
  CHECK(lesson.cells[0].lines == std::vector<std::string>{"# A title", "", "Some `prose`."});
  CHECK(lesson.cells[1].kind == CellKind::Code);
  CHECK(lesson.cells[1].name.empty());
  CHECK(lesson.cells[1].lines == std::vector<std::string>{"#include <cstdio>"});
  CHECK(lesson.cells[2].name == "first_cell");
  CHECK(lesson.cells[3].name == "helper_cell");
}

TEST_CASE("cells know the lines they span, for mapping TUTOR_CELL lines back to cells") {
  const LessonSource lesson = parse_lesson(kLesson, "lesson.cpp");
  const Cell& cell = *lesson.find("first_cell");
  CHECK(cell.marker_line == 9);
  CHECK(cell.first_line == 10);
  CHECK(cell.last_line() == 13);
  CHECK(lesson.code_cell_at(10) == &cell);
  CHECK(lesson.code_cell_at(13) == &cell);
  CHECK(lesson.code_cell_at(1) == nullptr);  // prose
  CHECK(lesson.find("missing") == nullptr);
}

TEST_CASE("output blocks attach to the code cell above them, per machine") {
  const LessonSource lesson = parse_lesson(kLesson, "lesson.cpp");
  const Cell& cell = *lesson.find("first_cell");
  REQUIRE(cell.outputs.size() == 2);
  CHECK(cell.outputs[0].machines.empty());
  CHECK(cell.outputs[0].lines == std::vector<std::string>{"a", ""});
  CHECK(cell.outputs[0].text() == "a\n\n");
  CHECK(cell.outputs[1].machines == std::vector<std::string>{"linux-x86_64", "rosetta-x86_64"});
  CHECK(cell.output_for("linux-x86_64")->text() == "other\n");
  CHECK(cell.output_for("rosetta-x86_64") == &cell.outputs[1]);
  CHECK(cell.output_for("m3-max-64gb") == &cell.outputs[0]);  // the machine-independent block
}

TEST_CASE("documented output keeps its indentation after the comment prefix") {
  const LessonSource lesson =
      parse_lesson("// %% c\nx\n// %% [output]\n//   indented\n// baseline   : 100%\n", "l.cpp");
  CHECK(lesson.find("c")->outputs[0].text() == "  indented\nbaseline   : 100%\n");
}

TEST_CASE("Windows line endings parse like Unix ones") {
  const LessonSource lesson = parse_lesson("// %% c\r\nx\r\n// %% [output]\r\n// y\r\n", "l.cpp");
  CHECK(lesson.find("c")->outputs[0].text() == "y\n");
}

TEST_CASE("an output block that runs into code is unterminated") {
  CHECK(error_at("// %% c\nx\n// %% [output]\n// y\nint z;\n") ==
        "5: unterminated output block (started at line 3): this line is neither documented "
        "output (// text) nor a new // %% cell");
  CHECK(error_at("// %% c\nx\n// %% [output]\n// y\n\n// z\n").rfind("6: unterminated", 0) == 0);
  CHECK(error_at("// %% c\nx\n// %% [output]\n//y\n").rfind("4: unterminated", 0) == 0);
}

TEST_CASE("a duplicate cell name is an error that points at the first use") {
  CHECK(error_at("// %% a\nx\n// %% b\ny\n// %% a\nz\n") ==
        "5: duplicate cell name 'a' (first used at line 1)");
}

TEST_CASE("an output block needs a named code cell right before it") {
  CHECK(error_at("// %% [output]\n// y\n") == "1: output block has no code cell before it");
  CHECK(error_at("// %% [markdown]\n// prose\n// %% [output]\n// y\n") ==
        "3: output block has no code cell before it");
  CHECK(error_at("// %%\nx\n// %% [output]\n// y\n")
            .rfind("3: output block follows an unnamed code cell", 0) == 0);
}

TEST_CASE("a cell documents each machine at most once") {
  CHECK(error_at("// %% c\nx\n// %% [output]\n// a\n// %% [output]\n// b\n")
            .rfind("5: cell 'c' already has a documented output (line 3)", 0) == 0);
  CHECK(error_at("// %% c\nx\n// %% [output] machine=\"m1-8gb\"\n// a\n"
                 "// %% [output] machine=\"linux-x86_64,m1-8gb\"\n// b\n") ==
        "5: cell 'c' already documents machine 'm1-8gb' (line 3)");
}

TEST_CASE("malformed markers are named precisely") {
  CHECK(
      error_at("// %% [raw]\n") ==
      "1: unknown cell type [raw]; use [markdown], [output], [python], or no type for a code cell");
  CHECK(error_at("// %% Sanity Check\n").rfind("1: cell name 'Sanity Check' must use", 0) == 0);
  CHECK(error_at("// %% [markdown] intro\n") ==
        "1: a [markdown] cell takes only facts=\"...\", the numbers its prose states, got 'intro'");
  CHECK(error_at("// %% c\nx\n// %% [output] machine=m1\n").rfind("3: expected machine=", 0) == 0);
  CHECK(error_at("// %% c\nx\n// %% [output] machine=\"a,,b\"\n") ==
        "3: empty machine name in 'machine=\"a,,b\"'");
  CHECK(error_at("// %% [markdown\n") == "1: unclosed '[' in the cell marker");
}

TEST_CASE("a Markdown cell's facts are the numbers its prose states, a comma and a space apart") {
  const LessonSource lesson =
      parse_lesson("// %% [markdown] facts=\"221 ms, 1,986 ms, 64 GB\"\n// text\n", "l.cpp");
  REQUIRE(lesson.cells.size() == 1);
  CHECK(lesson.cells[0].facts == std::vector<std::string>{"221 ms", "1,986 ms", "64 GB"});
  CHECK(error_at("// %% [markdown] facts=\"221 ms, \"\n") == "1: empty item in facts=\"221 ms, \"");
}

TEST_CASE("code inside a Markdown cell is reported with the cell's start") {
  CHECK(error_at("// %% [markdown]\n// prose\nint x;\n") ==
        "3: code inside the Markdown cell that starts at line 1; start a code cell with // %% "
        "before it");
}

TEST_CASE("a format error reads like a compiler diagnostic, path:line: error: message") {
  try {
    parse_lesson("// %% [raw]\n", "lessons/02_x.cpp");
    FAIL("expected an error");
  } catch (const FormatError& e) {
    CHECK(std::string(e.what()).rfind("lessons/02_x.cpp:1: error: unknown cell type", 0) == 0);
  }
}

TEST_CASE("a missing lesson file is reported with its path") {
  CHECK_THROWS_WITH_AS(engine::notebook::load_lesson("/nonexistent/lesson.cpp"),
                       doctest::Contains("/nonexistent/lesson.cpp: error: cannot read the lesson"),
                       FormatError);
}

TEST_CASE("what is not a lesson file cannot be read: a directory, a device, a file far too large") {
  const auto cannot_read = [](const std::string& path, const char* why) {
    CAPTURE(path);
    CHECK_THROWS_WITH_AS(
        engine::notebook::load_lesson(path),
        doctest::Contains((path + ": error: cannot read the lesson: " + why).c_str()), FormatError);
  };
  cannot_read(TUTOR_SOURCE_DIR, "it is a directory");
  cannot_read("/dev/null", "it is not a regular file");  // once: "no TUTOR_CELL on this line"
  cannot_read("/dev/zero", "it is not a regular file");  // once: std::bad_alloc
  // Named after this process: CTest may run this program twice at once (its peak-memory test).
  const std::filesystem::path huge = std::filesystem::temp_directory_path() /
                                     (std::to_string(::getpid()) + "-lesson_source_test_huge.cpp");
  std::ofstream(huge) << "// %% c\n";
  std::filesystem::resize_file(huge, 17u << 20);  // sparse: takes no room on the disk
  cannot_read(huge.string(), "it is larger than 16 MiB");
  std::filesystem::remove(huge);
}

TEST_CASE("a '// %%' comment without a following space is plain text, not a marker") {
  const LessonSource lesson =
      parse_lesson("// %% c\nx = 1;  // %%not a marker\n//%% nor this\n", "l.cpp");
  REQUIRE(lesson.cells.size() == 1);
  CHECK(lesson.cells[0].lines.size() == 2);
}

TEST_CASE("a [python] block is the twin of the code cell above it, after its outputs") {
  const LessonSource lesson = parse_lesson(
      "// %%\n#include <x>\n// %% [python]\n// import torch\n\n"
      "// %% c\nx\n// %% [output]\n// 1\n// %% [python]\n// if True:\n//     print(1)\n//\n// print(2)\n\n"
      "// %% d\ny\n// %% [python] before=\"2.6\" differs=\"1.13 says it another way\"\n// print(3)\n",
      "l.cpp");
  const Cell& c = *lesson.find("c");
  REQUIRE(c.python);
  CHECK(c.python->marker_line == 10);
  CHECK(c.python->code() == "if True:\n    print(1)\n\nprint(2)\n");
  CHECK(c.python->differs.empty());
  CHECK(c.outputs.size() == 1);
  const Cell& d = *lesson.find("d");
  REQUIRE(d.python);
  CHECK(d.python->before == "2.6");
  CHECK(d.python->differs == "1.13 says it another way");
  CHECK(lesson.python_prelude() == "import torch\n");
}

TEST_CASE("malformed [python] blocks are named precisely") {
  CHECK(error_at("// %% [python]\n// x\n") == "1: [python] block has no code cell before it");
  CHECK(error_at("// %% c\nx\n// %% [python]\n// a\n// %% [python]\n// b\n") ==
        "5: cell 'c' already has a Python twin (line 3)");
  CHECK(error_at("// %% c\nx\n// %% [python]\n// a\n// %% [output]\n// b\n") ==
        "5: output block after the Python twin; document outputs before [python]");
  CHECK(error_at("// %% c\nx\n// %% [python]\n// a\nint z;\n") ==
        "5: unterminated [python] block (started at line 3): this line is neither Python (// code) "
        "nor a new // %% cell");
  CHECK(error_at("// %% c\nx\n// %% [python] differs=\"\"\n") ==
        "3: differs=\"\" is empty; say why real PyTorch prints something else");
  CHECK(error_at("// %% c\nx\n// %% [python] before=\"two\" differs=\"x\"\n") ==
        "3: before=\"two\" is not a PyTorch release such as \"2.6\"");
  CHECK(error_at("// %% c\nx\n// %% [python] before=\"2.6\"\n") ==
        "3: before=\"2.6\" needs differs=\"WHY\": say what older releases print");
  CHECK(error_at("// %% c\nx\n// %% [python] since=\"2.6\"\n") ==
        "3: unknown option 'since' of [python]; it takes differs and before");
  CHECK(error_at("// %% c\nx\n// %% [python] differs=why\n")
            .rfind("3: expected differs=\"WHY\" and optionally before=\"2.6\" after [python]", 0) ==
        0);
  CHECK(error_at("// %%\nx\n// %% [python] differs=\"no\"\n") ==
        "3: the Python prelude (the twin of an unnamed cell) prints nothing, so it cannot differ");
}

TEST_CASE("compare=\"...\" on a code cell names the machines whose outputs show under it") {
  const LessonSource lesson = parse_lesson(
      "// %% c compare=\"linux-x86_64, m1-8gb\"\nx\n// %% [output]\n// 1\n// %% d\ny\n", "l.cpp");
  CHECK(lesson.find("c")->compare == std::vector<std::string>{"linux-x86_64", "m1-8gb"});
  CHECK(lesson.find("d")->compare.empty());
}

TEST_CASE("requires=\"mps\" marks a cell that runs only where MPS is available") {
  const LessonSource lesson = parse_lesson(
      "// %%\n// %% [python]\n// import torch\n// %% timed requires=\"mps\" compare=\"m1-8gb\"\nint x;\n"
      "// %% [python]\n// print(1)\n// %% plain\nint y;\n",
      "t.cpp");
  const Cell& timed = *lesson.find("timed");
  CHECK(timed.requires_mps);
  CHECK(timed.compare == std::vector<std::string>{"m1-8gb"});
  CHECK_FALSE(lesson.find("plain")->requires_mps);
  CHECK(
      lesson.twin_script(timed) ==
      "import torch\nif not torch.backends.mps.is_available():  # requires=\"mps\"\n"
      "    print(\"no mps device here: this cell needs MPS\")\n    raise SystemExit(0)\nprint(1)\n");
  CHECK(error_at("// %% c requires=\"cuda\"\n") ==
        "1: requires=\"cuda\": a cell can only require \"mps\"");
}

TEST_CASE("malformed compare options are named precisely") {
  CHECK(error_at("// %% c compare=\"\"\n") ==
        "1: compare=\"\" is empty; name the machines whose documented output the prose discusses");
  CHECK(error_at("// %% c compare=\"m1-8gb,,linux-x86_64\"\n") ==
        "1: empty machine name in compare=\"m1-8gb,,linux-x86_64\"");
  CHECK(error_at("// %% c compare=\"m1-8gb,m1-8gb\"\n") == "1: compare names 'm1-8gb' twice");
  CHECK(error_at("// %% c show=\"m1-8gb\"\n") ==
        "1: unknown option 'show' of cell 'c'; a code cell takes compare and requires");
  CHECK(
      error_at("// %% c compare=m1-8gb\n") ==
      "1: expected compare=\"NAME,NAME\" or requires=\"mps\" after the cell name, got 'compare=m1-8gb'");
  CHECK(error_at("// %% compare=\"m1-8gb\"\n") ==
        "1: a code cell's options follow its name: // %% my_cell compare=\"m1-8gb\"");
}

TEST_CASE("a section of a lesson in sections is read with its folder's shared file") {
  namespace fs = std::filesystem;
  const fs::path folder = scratch_directory("lesson_source_test") / "08_long_lesson";
  fs::create_directories(folder);
  std::ofstream(folder / "shared.h")
      << "// %% [markdown]\n// # Lesson 8 · Long\n\n// %%\nint shared();\n// %% [python]\n"
         "// import torch\n";
  std::ofstream(folder / "08_2_later.cpp")
      << "// %%\n#include \"shared.h\"\n// %% [python]\n// import time\n\n"
         "// %% c\nx\n// %% [python]\n// print(1)\n";
  const LessonSource section = engine::notebook::load_lesson((folder / "08_2_later.cpp").string());
  CHECK(section.shared_path == (folder / "shared.h").string());
  REQUIRE(section.shared_cells.size() == 2);
  CHECK(section.shared_cells[1].lines == std::vector<std::string>{"int shared();"});
  // The twins start with the shared file's prelude, then the section's own.
  CHECK(section.python_prelude() == "import torch\nimport time\n");
  CHECK(section.twin_script(*section.find("c")) == "import torch\nimport time\nprint(1)\n");
  // The shared file alone, and a file outside any lesson folder, have none.
  CHECK(engine::notebook::load_lesson((folder / "shared.h").string()).shared_path.empty());
  CHECK(engine::notebook::shared_file_of(folder.parent_path() / "08_x.cpp").empty());
  fs::remove_all(folder.parent_path());
}

TEST_CASE("lesson and section numbers, and the programs they are built into") {
  using engine::notebook::lesson_number;
  using engine::notebook::program_number;
  using engine::notebook::program_target;
  CHECK(lesson_number("03_placement") == "03");
  CHECK(lesson_number("08_2_compiled") == "08");
  CHECK_FALSE(lesson_number("shared").has_value());
  CHECK_FALSE(lesson_number("3_x").has_value());
  CHECK(program_number("03_placement") == "03");
  CHECK(program_number("08_2_compiled") == "08.2");
  CHECK(program_number("08_0_x") == "08");       // sections count from 1
  CHECK(program_number("01_3d_plots") == "01");  // a topic may start with a digit
  CHECK(program_target("03") == "lesson03");
  CHECK(program_target("08.2") == "lesson08_2");
}
