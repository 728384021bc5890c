#pragma once
// Internal: the source of a library and its diagnostics. Metal's compiler (clang) names the
// source "program_source" and reports an error as
//   program_source:LINE:COLUMN: error: MESSAGE
//   <the source line>
//   <spaces>^
// with lines and columns counted from 1, a tab counting as one column.

#include <string>
#include <string_view>
#include <vector>

namespace engine::metal::detail {

struct Location {
  int line = 1;
  int column = 1;
};

class SourceText {
 public:
  explicit SourceText(std::string_view text);
  std::string_view line(int number) const;  // without its newline; empty past the end
  // "program_source:3:5: error: MESSAGE\n<line>\n    ^\n" (severity "error" or "fatal error")
  std::string diagnostic(Location where, std::string_view message,
                         std::string_view severity = "error") const;

 private:
  std::string text_;
  std::vector<std::size_t> line_starts_;
};

// The exception a phase of the front end throws at the first error; Library::compile turns
// it into a CompileError with the diagnostic text.
struct SourceError {
  Location where;
  std::string message;
  std::string severity = "error";
};

[[noreturn]] void fail(Location where, std::string message);

}  // namespace engine::metal::detail
