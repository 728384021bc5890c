#include "engine/notebook/text_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace engine::notebook {

std::string read_text_file(const std::string& path, std::uintmax_t limit) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error) throw UnreadableFile(error.message());
  if (std::filesystem::is_directory(status)) throw UnreadableFile("it is a directory");
  if (!std::filesystem::is_regular_file(status))
    throw UnreadableFile("it is not a regular file");  // devices, FIFOs
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UnreadableFile(std::strerror(errno));
  std::string text;
  char chunk[65536];
  while (in && text.size() <= limit) {  // read, not trust the size: /proc files report 0
    in.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw UnreadableFile(std::strerror(errno));
  if (text.size() > limit) {
    throw UnreadableFile("it is larger than " + std::to_string(limit >> 20) +
                         " MiB, far more than such a file holds");
  }
  return text;
}

}  // namespace engine::notebook
