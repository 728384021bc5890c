#include "source_text.h"

#include <utility>

namespace engine::metal::detail {

SourceText::SourceText(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

std::string_view SourceText::line(int number) const {
  if (number < 1 || static_cast<std::size_t>(number) > line_starts_.size()) return {};
  const std::size_t start = line_starts_[static_cast<std::size_t>(number - 1)];
  std::size_t end = text_.find('\n', start);
  if (end == std::string::npos) end = text_.size();
  if (end > start && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(start, end - start);
}

std::string SourceText::diagnostic(Location where, std::string_view message,
                                   std::string_view severity) const {
  std::string text = "program_source:" + std::to_string(where.line) + ":" +
                     std::to_string(where.column) + ": " + std::string(severity) + ": " +
                     std::string(message) + "\n";
  const std::string_view source_line = line(where.line);
  text += std::string(source_line) + "\n";
  // The caret sits under the column; tabs before it stay tabs so that it lines up.
  std::string caret;
  for (int i = 1; i < where.column; ++i) {
    const auto at = static_cast<std::size_t>(i - 1);
    caret += at < source_line.size() && source_line[at] == '\t' ? '\t' : ' ';
  }
  return text + caret + "^\n";
}

void fail(Location where, std::string message) {
  throw SourceError{where, std::move(message), "error"};
}

}  // namespace engine::metal::detail
