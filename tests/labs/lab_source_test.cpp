// The lab format's parser (labs/harness/include/harness/lab_source.h): TODO lines, and decoys
// read and applied as the build applies them.

#include "harness/lab_source.h"

#include <doctest/doctest.h>

#include <string>

namespace {

const std::string kSolution = "int f() {\n  return 1;\n}\nint g() {\n  return 2;\n}\n";

std::string decoy(const std::string& changes) {
  return "# Decoy: returns 0.\n\nFails: \"f returns one\"\nSays: \"one\"\nAlso fails: \"g uses f\"\n\n" +
         changes;
}

std::string error_of(const std::string& text, const std::string& solution = kSolution) {
  try {
    harness::apply_decoy(harness::parse_decoy(text, "d.md"), solution, "d.md");
  } catch (const harness::DecoyError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE(
    "TODO lines are found with their ids, texts and line numbers, as the starters write them") {
  const auto todos = harness::todo_lines(
      "double f() {\n  TODO(\"5.1\", \"time the \\\"warm\\\" runs\");\n}\n// TODO(\"x\", \"a comment\")\n"
      "  const int t = TODO(\"5.2\", \"not first on its line\");\n\tTODO(\"5.3\", \"tab indented\");\n");
  REQUIRE(todos.size() == 2);
  CHECK(todos[0].line == 2);
  CHECK(todos[0].id == "5.1");
  CHECK(todos[0].what == "time the \\\"warm\\\" runs");
  CHECK(todos[1].line == 6);
  CHECK(todos[1].id == "5.3");
  CHECK(harness::todo_lines("int main() {}\n").empty());
}

TEST_CASE("a decoy is the solution with each of its blocks changed, and says what must fail") {
  const harness::DecoySpec spec = harness::parse_decoy(
      decoy("~~~cpp solution\n  return 1;\n~~~\n\n~~~cpp decoy\n  return 0;\n~~~\n"), "d.md");
  CHECK(spec.fails == "f returns one");
  CHECK(spec.says == "one");
  CHECK(spec.also_fails == std::vector<std::string>{"g uses f"});
  CHECK(harness::apply_decoy(spec, kSolution, "d.md") ==
        "int f() {\n  return 0;\n}\nint g() {\n  return 2;\n}\n");
}

TEST_CASE("a malformed decoy is refused, naming its file and what is wrong") {
  CHECK(
      error_of(decoy("~~~cpp solution\n  return 3;\n~~~\n~~~cpp decoy\n  return 0;\n~~~\n")) ==
      "d.md: each ~~~cpp solution block must appear exactly once in solution/lab.cpp:\n  return 3;\n");
  CHECK(
      error_of(decoy("~~~cpp solution\n}\n~~~\n~~~cpp decoy\n};\n~~~\n"))
          .starts_with(
              "d.md: each ~~~cpp solution block must appear exactly once"));  // twice in the solution
  CHECK(error_of(decoy("~~~cpp solution\n  return 1;\n~~~\n")) ==
        "d.md: each ~~~cpp solution block needs a ~~~cpp decoy block after it");
  CHECK(error_of(decoy("~~~cpp solution\n  return 1;\n")) ==
        "d.md: a ~~~cpp block without its closing ~~~");
  CHECK(error_of(decoy("")) ==
        "d.md: no change; a decoy is the solution with ~~~cpp solution and ~~~cpp decoy blocks");
  CHECK(error_of("~~~cpp solution\n  return 1;\n~~~\n~~~cpp decoy\n  return 0;\n~~~\n") ==
        "d.md: a decoy needs the lines Fails: \"test name\" and Says: \"text\"");
  CHECK(
      error_of(
          "Fails: \"f*\"\nSays: \"x\"\n~~~cpp solution\n  return 1;\n~~~\n~~~cpp decoy\n  return 0;\n~~~\n") ==
      "d.md: a test name used by a decoy cannot contain * ? or \\ (doctest's wildcards): f*");
}

namespace {

const std::string kStarter =
    "double f(int runs) {\n  TODO(\"5.1\", \"warm up\");\n  for (int i = 0; i < runs; ++i) {\n  }\n"
    "  TODO(\"5.2\", \"return\");\n}\nint g() {\n  TODO(\"5.3\", \"g\");\n}\n";

std::string hinted(const std::string& hints, const std::string& starter = kStarter) {
  try {
    return harness::apply_hint_code(harness::parse_hint_code(hints, "hints.md"), starter,
                                    "hints.md");
  } catch (const harness::DecoyError& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("a hint's code takes the place of the TODO lines its fence names, indented as they are") {
  const std::string hints =
      "# Hints\n\n## Nearly there\n\n```cpp TODO 5.1-5.2\nwarm();\n\nreturn 1.0;\n```\n\n"
      "```sh\nbuild/course verify 05\n```\n\nAnd `g`:\n\n```cpp TODO 5.3\nreturn 3;\n```\n";
  const auto blocks = harness::parse_hint_code(hints, "hints.md");
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0].first == "5.1");
  CHECK(blocks[0].last == "5.2");
  CHECK(blocks[0].code == "warm();\n\nreturn 1.0;\n");
  CHECK(blocks[1].first == "5.3");
  CHECK(blocks[1].last == "5.3");
  CHECK(hinted(hints) ==
        "double f(int runs) {\n  warm();\n\n  return 1.0;\n}\nint g() {\n  return 3;\n}\n");
}

TEST_CASE("a hint's code that does not say where it goes, or names a TODO not there, is refused") {
  CHECK(
      hinted("```cpp\nreturn 1;\n```\n")
          .starts_with(
              "hints.md: line 1: a hint's ```cpp block says which TODO lines of the starter it replaces"));
  CHECK(hinted("```cpp TODO 6.1\nreturn 1;\n```\n") ==
        "hints.md: a hint's code replaces TODO 6.1, which the starter does not have");
  CHECK(hinted("```cpp TODO 5.2-5.1\nreturn 1;\n```\n") ==
        "hints.md: a hint's code replaces TODO 5.2-5.1, but TODO 5.1 comes first");
  CHECK(hinted("```cpp TODO 5.1-5.2\nreturn 1;\n```\n```cpp TODO 5.2\nreturn 2;\n```\n") ==
        "hints.md: two hints' code replaces line 5 of the starter");
  CHECK(hinted("```cpp TODO 5.1\nreturn 1;\n") ==
        "hints.md: a ```cpp block without its closing ```");
}
