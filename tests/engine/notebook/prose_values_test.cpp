// Numbers in prose that quote outputs (engine/notebook/prose_values.h): the references, the
// values they stand for, and the check that holds a lesson's prose to its outputs.

#include "engine/notebook/prose_values.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/machine.h"
#include "engine/notebook/documented_machines.h"

namespace {

using namespace engine::notebook;

// A lesson with one cell documented for the M3 Max and for the M1 (the others print the one
// block without a machine), and prose after it.
std::string lesson_with_prose(const std::string& prose, const std::string& marker = "") {
  return "// %% step_time compare=\"m3-max-64gb,m1-8gb\"\n"
         "TUTOR_CELL(\"claim\") {}\n"
         "// %% [output]\n"
         "// with the fallback: 4.71 ms per step\n"
         "// rewritten:         2.25 ms per step\n"
         "// %% [output] machine=\"m1-8gb\"\n"
         "// with the fallback: 12.34 ms per step\n"
         "// rewritten:         10.39 ms per step\n"
         "// %% [markdown]" +
         marker + "\n" + prose;
}

void check(const std::string& lesson_text) {
  check_prose_values(parse_lesson(lesson_text, "lesson.cpp"), documented_machines());
}

std::string check_error(const std::string& lesson_text) {
  try {
    check(lesson_text);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a reference names a cell, optionally a machine, and the text before the number") {
  const std::vector<ValueReference> references = references_in(
      "from {{step_time:rewritten:}} ms to {{step_time@m1-8gb:with the fallback:}} ms");
  REQUIRE(references.size() == 2);
  CHECK(references[0].cell == "step_time");
  CHECK(references[0].machine.empty());
  CHECK(references[0].anchor == "rewritten:");
  CHECK(references[1].machine == "m1-8gb");
  CHECK(references[1].anchor == "with the fallback:");
}

TEST_CASE("a malformed reference is refused with what is wrong") {
  CHECK_THROWS_WITH(references_in("{{step_time:rewritten:"), "'{{' without '}}' on the same line");
  CHECK_THROWS_WITH(references_in("{{step_time}}"),
                    "'{{step_time}}' needs an anchor: {{cell:text before the number}}");
  CHECK_THROWS_WITH(references_in("{{Step Time:x}}"),
                    "'Step Time' in '{{Step Time:x}}' is not a cell name");
}

TEST_CASE("the value is the number after the anchor, the Nth with #N, across a gap with ...") {
  const std::string output =
      "batch 32: step 0.87 ms\n  busy 0.84 ms (96%): 69 kernels\n"
      "batch 2048: step 11.63 ms\n  busy 11.59 ms (100%): 69 kernels\n"
      "    16    256      0.32      0.85    0.38x\n";
  CHECK(value_after(output, "step") == "0.87");
  CHECK(value_after(output, "batch 2048...busy") == "11.59");
  CHECK(value_after(output, "batch 2048...busy#2") == "100");
  CHECK(value_after(output, "16    256#3") == "0.38");
  CHECK(value_after(output, "16    256#4") == std::nullopt);  // no fourth number on that line
  CHECK(value_after(output, "epoch") == std::nullopt);
  CHECK(value_after("total: 1,986 ms, change -0.5\n", "total:") == "1,986");
  CHECK(value_after("total: 1,986 ms, change -0.5\n", "change") == "-0.5");
}

TEST_CASE("with_values replaces each reference and leaves the rest of the prose") {
  const std::string prose = "a {{cell:x}} b {{cell@m1-8gb:y}} c";
  const std::string filled = with_values(prose, [](const ValueReference& reference) {
    return reference.machine.empty() ? std::string("1") : std::string("2");
  });
  CHECK(filled == "a 1 b 2 c");
}

TEST_CASE("stated numbers are those with a unit, outside references and code") {
  const std::vector<std::string> stated = stated_numbers(
      "It takes 2.4 ms, 36 %, 2.1x or 6.09\nGiB; `3 ms` in code, {{cell:x}} ms quoted,\n"
      "```\n5 ms in a block\n```\n256 x 256 is a shape, 3 steps are no unit, 1,986 ms is.");
  CHECK(stated == std::vector<std::string>{"2.4 ms", "36 %", "2.1x", "6.09 GiB", "1,986 ms"});
}

TEST_CASE("prose that quotes outputs through references passes on every documented machine") {
  CHECK_NOTHROW(
      check(lesson_with_prose("// The step takes {{step_time:rewritten:}} ms here and\n"
                              "// {{step_time@m1-8gb:rewritten:}} ms on the M1.\n")));
}

TEST_CASE("prose that states a number an output may print otherwise is refused at its line") {
  // The sentence lesson 4 once had beside outputs of 4.71 and 2.25 ms.
  const std::string error = check_error(
      lesson_with_prose("// The detour adds 2.4 ms to a 2.8 ms step, almost doubling it.\n"));
  CHECK(error.find("lesson.cpp:10: error: the prose states 2.4 ms") != std::string::npos);
}

TEST_CASE("a fact the marker lists may be stated, and a listed fact must be in the prose") {
  CHECK_NOTHROW(
      check(lesson_with_prose("// The published run took 221 ms.\n", " facts=\"221 ms\"")));
  const std::string error =
      check_error(lesson_with_prose("// The published run took 221 ms.\n", " facts=\"306 ms\""));
  CHECK(error.find("the prose states 221 ms") != std::string::npos);
  const std::string unused =
      check_error(lesson_with_prose("// No number at all.\n", " facts=\"306 ms\""));
  CHECK(unused.find("facts=\"...\" lists '306 ms', which this prose does not state") !=
        std::string::npos);
}

TEST_CASE("a reference must name a cell above, a machine shown there, and text its output holds") {
  CHECK(check_error(lesson_with_prose("// {{no_such_cell:rewritten:}} ms\n"))
            .find("{{no_such_cell:rewritten:}} names no code cell above this prose") !=
        std::string::npos);
  CHECK(check_error(lesson_with_prose("// {{step_time@linux-x86_64:rewritten:}} ms\n"))
            .find("the notebook shows linux-x86_64's output under 'step_time' only where its "
                  "compare=\"...\" names it") != std::string::npos);
  CHECK(check_error(lesson_with_prose("// {{step_time:per epoch}} ms\n"))
            .find("no number follows 'per epoch' in the output of 'step_time' documented for "
                  "m3-max-64gb") != std::string::npos);
}

TEST_CASE("a reference that resolves on one machine only is refused, naming the other") {
  const std::string text =
      "// %% step_time requires=\"mps\"\nTUTOR_CELL(\"claim\") {}\n// %% [output]\n"
      "// step: 0.87 ms\n// %% [markdown]\n// It takes {{step_time:step:}} ms.\n";
  // Where MPS is unavailable the cell prints the standard line, which holds no number.
  CHECK(check_error(text).find("documented for intel-mac-macos12.0") != std::string::npos);
}

TEST_CASE("documented_value reads a machine's documented output, or the one for every machine") {
  const LessonSource lesson = parse_lesson(lesson_with_prose("// prose\n"), "lesson.cpp");
  const ValueReference here = references_in("{{step_time:rewritten:}}").front();
  CHECK(documented_value(lesson, here, "m1-8gb") == "10.39");
  CHECK(documented_value(lesson, here, "linux-x86_64") == "2.25");
  const ValueReference m1 = references_in("{{step_time@m1-8gb:rewritten:}}").front();
  CHECK(documented_value(lesson, m1, "m3-max-64gb") == "10.39");
}
