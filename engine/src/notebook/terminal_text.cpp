#include "engine/notebook/terminal_text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>

#include "engine/notebook/text_diff.h"

namespace engine::notebook {

std::size_t terminal_width(int fd) {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr) {
    const std::string_view text(columns);
    std::size_t width = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), width);
    if (error == std::errc() && end == text.data() + text.size() && width >= 20) return width;
  }
  winsize size{};
  if (isatty(fd) != 0 && ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20) return size.ws_col;
  return 80;
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b') {  // CSI: ESC [ parameters final-byte
      while (i < text.size() && !(text[i] >= '@' && text[i] <= '~' && text[i] != '[')) ++i;
      continue;
    }
    width += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  }
  return width;
}

std::string wrap(std::string_view text, std::size_t width, std::string_view first, std::string_view rest) {
  std::string out;
  std::string_view prefix = first;
  for (const std::string& paragraph : split_lines(text)) {
    std::string line(prefix);
    std::size_t used = display_width(prefix);
    bool empty = true;  // no word on this line yet
    std::size_t start = 0;
    while (start <= paragraph.size()) {
      auto end = paragraph.find(' ', start);
      if (end == std::string::npos) end = paragraph.size();
      const std::string_view word(paragraph.data() + start, end - start);
      start = end + 1;
      if (word.empty()) continue;
      const std::size_t word_width = display_width(word);
      if (!empty && used + 1 + word_width > width) {
        out += line + '\n';
        line = std::string(rest);
        used = display_width(rest);
        empty = true;
      }
      if (!empty) {
        line += ' ';
        ++used;
      }
      line += word;
      used += word_width;
      empty = false;
    }
    out += line + '\n';
    prefix = rest;
  }
  return out;
}

}  // namespace engine::notebook
