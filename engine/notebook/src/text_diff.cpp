#include "engine/notebook/text_diff.h"

#include <algorithm>

namespace engine::notebook {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.emplace_back(text.substr(start));
      break;
    }
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// A longest-common-subsequence table over lines; cell outputs are a few dozen lines, so the
// quadratic table is small.
std::vector<DiffLine> line_diff(std::string_view expected, std::string_view actual) {
  const std::vector<std::string> a = split_lines(expected), b = split_lines(actual);
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> common(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      common[i][j] =
          a[i] == b[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  std::vector<DiffLine> diff;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      diff.push_back({DiffOp::Same, a[i++]});
      ++j;
    } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
      diff.push_back({DiffOp::Expected, a[i++]});  // documented lines first, as diff -u does
    } else {
      diff.push_back({DiffOp::Actual, b[j++]});
    }
  }
  return diff;
}

std::size_t first_difference(const std::vector<DiffLine>& diff) {
  std::size_t documented = 0;
  for (const DiffLine& line : diff) {
    if (line.op != DiffOp::Same) break;
    ++documented;
  }
  return documented;
}

std::string format_diff(const std::vector<DiffLine>& diff) {
  std::string text;
  for (const DiffLine& line : diff) {
    text += line.op == DiffOp::Same ? "  " : line.op == DiffOp::Expected ? "- " : "+ ";
    text += line.text;
    text += '\n';
  }
  return text;
}

}  // namespace engine::notebook
