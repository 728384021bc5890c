// Lab 9's hints show Metal from inside its puzzles' kernels. Each ```metal block, put in place of
// the TODO line its fence names (```metal TODO 9.7), must compile as the learner's file would:
// a hint that Metal's compiler rejects would send a learner after an error of ours.

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/compile_shader.h"
#include "engine/errors.h"
#include "harness/lab_source.h"

namespace {

const std::filesystem::path kLab = TUTOR_SOURCE_DIR "/labs/09_metal_puzzles";

// The starter puzzle whose TODO line has `id`; empty if none has.
std::filesystem::path puzzle_with_todo(const std::string& id) {
  for (const auto& entry : std::filesystem::directory_iterator(kLab / "starter")) {
    if (entry.path().extension() != ".metal") continue;
    if (harness::read_lab_file(entry.path()).find("TODO(\"" + id + "\"") != std::string::npos)
      return entry.path();
  }
  return {};
}

}  // namespace

TEST_CASE("each Metal hint of lab 9 compiles in its puzzle, in place of the TODO it names") {
  const std::vector<harness::HintCode> blocks =
      harness::parse_hint_code(harness::read_lab_file(kLab / "hints.md"), "hints.md", "metal");
  REQUIRE_FALSE(blocks.empty());
  for (const harness::HintCode& block : blocks) {
    CAPTURE(block.first);
    const std::filesystem::path puzzle = puzzle_with_todo(block.first);
    REQUIRE_MESSAGE(!puzzle.empty(), "no starter puzzle has TODO " << block.first);
    const std::string hinted =
        harness::apply_hint_code({block}, harness::read_lab_file(puzzle), "hints.md");
    CHECK(hinted.find("TODO(") == std::string::npos);  // the puzzle's only TODO is the hint's
    try {
      static_cast<void>(engine::py::torch::mps::compile_shader(hinted));
    } catch (const engine::Error& error) {
      FAIL_CHECK(puzzle.filename().string() << " with the hint's code does not compile:\n"
                                            << error.what());
    }
  }
}

TEST_CASE("a Metal hint that does not compile is caught") {
  const std::string puzzle = harness::read_lab_file(kLab / "starter" / "07_dot_product.metal");
  const std::string hinted = harness::apply_hint_code(
      harness::parse_hint_code("```metal TODO 9.7\nfloat x = simd_sum(a[i]) +;\n```\n", "hints.md",
                               "metal"),
      puzzle, "hints.md");
  CHECK_THROWS_AS(engine::py::torch::mps::compile_shader(hinted), engine::Error);
  CHECK(harness::parse_hint_code("```cpp TODO 1.1\nf();\n```\n", "hints.md", "metal").empty());
}
