#include "engine/notebook/terminal_text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

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

namespace {

// The characters a reader sees: ANSI escape sequences left out.
std::string visible(std::string_view text) {
  std::string shown;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b') {
      while (i < text.size() && !(text[i] >= '@' && text[i] <= '~' && text[i] != '[')) ++i;
      continue;
    }
    shown += text[i];
  }
  return shown;
}

// A unit the course writes after a number, with the punctuation that may follow it.
bool is_unit(std::string word) {
  while (!word.empty() && std::string_view(".,;:)").find(word.back()) != std::string_view::npos)
    word.pop_back();
  static constexpr std::string_view kUnits[] = {"%",   "x",   "s",    "ms",    "µs",    "ns",
                                                "KiB", "MiB", "GiB",  "TiB",   "KB",    "MB",
                                                "GB",  "TB",  "GB/s", "GiB/s", "TFLOPS"};
  return std::find(std::begin(kUnits), std::end(kUnits), word) != std::end(kUnits);
}

// The words of a paragraph, split at spaces, except that a number keeps its unit: "10 %" and
// "39040 s" never end up on two lines.
std::vector<std::string_view> words_of(std::string_view paragraph) {
  std::vector<std::string_view> words;
  std::size_t start = 0;
  while (start <= paragraph.size()) {
    auto end = paragraph.find(' ', start);
    if (end == std::string_view::npos) end = paragraph.size();
    const std::string_view word = paragraph.substr(start, end - start);
    if (!word.empty()) {
      const std::string before = words.empty() ? "" : visible(words.back());
      const bool after_number =
          !before.empty() && std::isdigit(static_cast<unsigned char>(before.back())) != 0;
      const bool joined =
          after_number && words.back().data() + words.back().size() + 1 == word.data();
      if (joined && is_unit(visible(word))) {
        words.back() = std::string_view(words.back().data(), words.back().size() + 1 + word.size());
      } else {
        words.push_back(word);
      }
    }
    start = end + 1;
  }
  return words;
}

}  // namespace

std::string wrap(std::string_view text, std::size_t width, std::string_view first,
                 std::string_view rest) {
  std::string out;
  std::string_view prefix = first;
  for (const std::string& paragraph : split_lines(text)) {
    std::string line(prefix);
    std::size_t used = display_width(prefix);
    bool empty = true;  // no word on this line yet
    for (const std::string_view word : words_of(paragraph)) {
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

namespace {

// Where a line's first part ends: all of it when it fits in `room` columns, else at its last
// space that leaves at most `room` columns before it; with no such space, after its last "(" or
// "," that fits (code such as f(g(x), y)); else a word longer than that stays whole.
std::size_t break_before(std::string_view line, std::size_t room) {
  if (display_width(line) <= room) return line.size();
  const std::size_t text = line.find_first_not_of(' ');
  std::size_t columns = 0, last_space = std::string_view::npos,
              last_punctuation = std::string_view::npos;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;  // inside a UTF-8 character
    if (columns > room) break;
    if (line[i] == ' ') last_space = i;
    if ((line[i] == '(' || line[i] == ',') && i > text && columns < room) last_punctuation = i;
    ++columns;
  }
  if (last_space != std::string_view::npos && last_space > text)
    return line.find_last_not_of(' ', last_space) + 1;
  if (last_punctuation != std::string_view::npos) return last_punctuation + 1;
  const std::size_t next = line.find(' ', text);
  return next == std::string_view::npos ? line.size() : next;
}

}  // namespace

std::vector<std::string> printed_line_parts(std::string_view line, std::size_t width,
                                            std::size_t indent) {
  std::vector<std::string> parts;
  std::string marker;
  while (true) {
    const std::size_t room = width > display_width(marker) ? width - display_width(marker) : 1;
    std::size_t cut = break_before(line, room);
    // A word that cannot break overflows its part: it takes the room of the indent before it
    // (the continuation's, or the line's own leading spaces), as much as it needs.
    if (const std::size_t shown = display_width(line.substr(0, cut)); shown > room) {
      const std::size_t over = shown - room;
      if (parts.empty()) {
        line.remove_prefix(std::min({over, line.find_first_not_of(' '), line.size()}));
      } else {
        const std::size_t spaces = marker.size() - std::string_view("↪ ").size();
        marker = std::string(spaces - std::min(over, spaces), ' ') + "↪ ";
      }
      cut = break_before(line, width > display_width(marker) ? width - display_width(marker) : 1);
    }
    parts.push_back(marker + std::string(line.substr(0, cut)));
    if (cut == line.size()) return parts;
    line.remove_prefix(cut);
    line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
    marker = std::string(std::min(indent, width / 2), ' ') + "↪ ";
  }
}

std::vector<std::string> code_line_parts(std::string_view line, std::size_t width) {
  return printed_line_parts(line, width, std::min(line.find_first_not_of(' '), line.size()));
}

}  // namespace engine::notebook
