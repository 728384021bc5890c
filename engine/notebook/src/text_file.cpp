// The file is opened without blocking, then asked what it is: a FIFO nobody writes would block
// the open itself, and a look at the path before opening it could be overtaken by a FIFO put
// there in between.

#include "engine/notebook/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace engine::notebook {
namespace {

class OpenFile {
 public:
  explicit OpenFile(const std::string& path)
      : fd_(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) {}
  ~OpenFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

[[noreturn]] void unreadable() { throw UnreadableFile(std::strerror(errno)); }

}  // namespace

std::string read_text_file(const std::string& path, std::uintmax_t limit) {
  const OpenFile file(path);
  if (file.fd() < 0) unreadable();
  struct stat info {};
  if (::fstat(file.fd(), &info) != 0) unreadable();
  if (S_ISDIR(info.st_mode)) throw UnreadableFile("it is a directory");
  if (S_ISFIFO(info.st_mode)) throw UnreadableFile("it is a FIFO (named pipe), not a regular file");
  if (!S_ISREG(info.st_mode)) throw UnreadableFile("it is not a regular file");  // a device
  std::string text;
  char chunk[65536];
  while (text.size() <= limit) {  // read, not trust the size: /proc files report 0
    const ssize_t n = ::read(file.fd(), chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) unreadable();
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  if (text.size() > limit) {
    throw UnreadableFile("it is larger than " + std::to_string(limit >> 20) +
                         " MiB, far more than such a file holds");
  }
  return text;
}

}  // namespace engine::notebook
