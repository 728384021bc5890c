#include "engine/notebook/text_diff.h"

#include <doctest/doctest.h>

using engine::notebook::format_diff;
using engine::notebook::line_diff;
using engine::notebook::split_lines;

TEST_CASE("split_lines drops only the final newline") {
  CHECK(split_lines("a\nb\n") == std::vector<std::string>{"a", "b"});
  CHECK(split_lines("a\n\n") == std::vector<std::string>{"a", ""});
  CHECK(split_lines("a") == std::vector<std::string>{"a"});
  CHECK(split_lines("").empty());
}

TEST_CASE("a changed line shows as the documented line removed and the printed one added") {
  CHECK(
      format_diff(line_diff("built: True\navailable: True\n", "built: True\navailable: False\n")) ==
      "  built: True\n- available: True\n+ available: False\n");
}

TEST_CASE("missing and extra lines are marked on their own") {
  CHECK(format_diff(line_diff("a\nb\nc\n", "a\nc\n")) == "  a\n- b\n  c\n");
  CHECK(format_diff(line_diff("a\n", "a\nextra\n")) == "  a\n+ extra\n");
  CHECK(format_diff(line_diff("", "x\n")) == "+ x\n");
}

TEST_CASE("identical texts give a diff without changes") {
  for (const auto& line : line_diff("a\nb\n", "a\nb\n")) {
    CHECK(line.op == engine::notebook::DiffOp::Same);
  }
}
