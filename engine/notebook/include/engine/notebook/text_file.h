#pragma once
// Reading a small text file that someone named on a command line or in a build: a lesson, a
// question bank, a model config. Whatever sits at the path, the answer is the text or a reason
// a person understands: a directory, a device or a FIFO is refused before it is read (a FIFO
// would block, /dev/zero would never end), and so is a file far larger than such a file can be.

#include <cstdint>
#include <stdexcept>
#include <string>

namespace engine::notebook {

// Why a file could not be read, without its path ("it is a directory", "No such file or
// directory"): callers put it into their own message.
class UnreadableFile : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The whole file. Throws UnreadableFile when it is not a regular file, cannot be opened or read,
// or holds more than `limit` bytes.
std::string read_text_file(const std::string& path, std::uintmax_t limit);

}  // namespace engine::notebook
