#include "engine/notebook/terminal_markdown.h"

#include <fmt/color.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/notebook/text_diff.h"

namespace engine::notebook {
namespace {

const fmt::text_style kHeading = fmt::emphasis::bold | fg(fmt::terminal_color::bright_magenta);
const fmt::text_style kSubheading = fmt::emphasis::bold | fg(fmt::terminal_color::bright_cyan);
const fmt::text_style kInlineCode = fg(fmt::terminal_color::cyan);
const fmt::text_style kBold = fmt::emphasis::bold;

std::string styled(const TerminalLook& look, fmt::text_style style, std::string_view text) {
  return look.color ? fmt::format(style, "{}", text) : std::string(text);
}

// Inline Markdown: `code` and **bold** get colours; without colour the Markdown stays as
// written, which reads well as plain text.
std::string render_inline(std::string_view text, const TerminalLook& look) {
  if (!look.color) return std::string(text);
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '`') {
      const auto end = text.find('`', i + 1);
      if (end != std::string_view::npos) {
        out += styled(look, kInlineCode, text.substr(i + 1, end - i - 1));
        i = end + 1;
        continue;
      }
    }
    if (text.substr(i, 2) == "**") {
      const auto end = text.find("**", i + 2);
      if (end != std::string_view::npos) {
        out += styled(look, kBold, text.substr(i + 2, end - i - 2));
        i = end + 2;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

std::string repeat(std::string_view piece, std::size_t times) {
  std::string text;
  for (std::size_t i = 0; i < times; ++i) text += piece;
  return text;
}

}  // namespace

std::string render_markdown(std::string_view markdown, const TerminalLook& look) {
  std::string out;
  for (const std::string& line : split_lines(markdown)) {
    const bool title = line.rfind("# ", 0) == 0;
    const bool section = line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0;
    if (title || section) {
      const std::string text = line.substr(line.find(' ') + 1);
      const fmt::text_style style = title ? kHeading : kSubheading;
      out += styled(look, style, text) + '\n' +
             styled(look, style, repeat(title ? "═" : "─", display_width(text))) + '\n';
    } else {
      out += render_inline(line, look) + '\n';
    }
  }
  return out;
}

std::string render_markdown_file(const std::string& path, const TerminalLook& look) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return render_markdown(text.str(), look);
}

}  // namespace engine::notebook
