#include "text.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/notebook/text_file.h"

namespace site {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string slug(std::string_view text) {
  std::string out;
  bool dash = false;
  for (const char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9')) {
      if (dash && !out.empty()) out += '-';
      out += c;
      dash = false;
    } else if (u >= 'A' && u <= 'Z') {
      if (dash && !out.empty()) out += '-';
      out += static_cast<char>(u - 'A' + 'a');
      dash = false;
    } else {
      dash = true;  // spaces, punctuation and non-ASCII letters all separate words
    }
  }
  return out.empty() ? "section" : out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

std::string read_text(const std::string& path) {
  constexpr std::uintmax_t kLimit = 256u << 20;  // the site's sources and its runs' records
  try {
    return engine::notebook::read_text_file(path, kLimit);
  } catch (const engine::notebook::UnreadableFile& e) {
    throw std::runtime_error("cannot read " + path + ": " + e.what());
  }
}

void write_text(const std::string& path, std::string_view text) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

}  // namespace site
