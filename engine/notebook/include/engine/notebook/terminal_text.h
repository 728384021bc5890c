#pragma once
// Text in a terminal: how many columns there are, how many a string takes, and wrapping at
// word boundaries, so that prose and quiz text fit the window instead of breaking mid-word.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace engine::notebook {

struct TerminalLook {
  bool color = false;      // ANSI colours and bold; without, plain text that still reads well
  std::size_t width = 80;  // columns to lay text out in
};

// The columns to lay text out in: COLUMNS when it holds a number (as shells export it), else
// the width of the terminal `fd` is, else 80 (a file or a pipe).
std::size_t terminal_width(int fd);

// Columns `text` takes: one per UTF-8 code point, none for ANSI escape sequences.
std::size_t display_width(std::string_view text);

// `text` broken at spaces into lines of at most `width` columns, each ending in a newline:
// the first line starts with `first`, the others with `rest` (a hanging indent). A word longer
// than a line stays whole. Newlines in `text` start new lines.
std::string wrap(std::string_view text, std::size_t width, std::string_view first = "",
                 std::string_view rest = "");

// A line a program printed (or a line of code), cut to show under its cell in parts of at most
// `width` columns: a line that fits stays one part; a longer one breaks at a space, and each
// later part starts with `indent` spaces and "↪ " so it is not read as a line of its own. The
// spaces inside a part stay as printed, so columns keep their alignment; a word longer than a
// part stays whole.
std::vector<std::string> printed_line_parts(std::string_view line, std::size_t width,
                                            std::size_t indent = 0);
// A line of code in parts the same way, each later part indented as the line itself is.
std::vector<std::string> code_line_parts(std::string_view line, std::size_t width);

}  // namespace engine::notebook
