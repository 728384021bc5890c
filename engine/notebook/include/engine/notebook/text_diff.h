#pragma once
// A line diff of documented against actual output, the way a learner reads a failed cell:
// every line, prefixed "  " when both agree, "- " when only documented, "+ " when only printed.

#include <string>
#include <string_view>
#include <vector>

namespace engine::notebook {

std::vector<std::string> split_lines(std::string_view text);

enum class DiffOp { Same, Expected, Actual };
struct DiffLine {
  DiffOp op;
  std::string text;
};

std::vector<DiffLine> line_diff(std::string_view expected, std::string_view actual);
// The index of the first documented line that differs: the line to point an editor at. A
// printed line added before documented line k counts as a difference at k; lines added after
// the last documented one give the number of documented lines.
std::size_t first_difference(const std::vector<DiffLine>& diff);
// The diff as text, "- " and "+ " prefixed, each line ending in a newline.
std::string format_diff(const std::vector<DiffLine>& diff);

}  // namespace engine::notebook
