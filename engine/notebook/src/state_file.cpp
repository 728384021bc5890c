#include "state_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace engine::notebook {
namespace {

namespace fs = std::filesystem;

std::string reason() { return std::strerror(errno); }

[[noreturn]] void fail(const std::string& what) { throw StateFileError(what + ": " + reason()); }

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void refuse(const fs::path& path, mode_t mode) {
  throw StateFileError(path.string() + " is " + kind_of(mode) +
                       ", not a regular file; it is left as it is");
}

// What lstat says is at `path`: nullopt if nothing; refuses anything but a regular file.
std::optional<struct stat> regular_file_at(const fs::path& path) {
  struct stat info {};
  if (lstat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return std::nullopt;
    fail("cannot read " + path.string());
  }
  if (!S_ISREG(info.st_mode)) refuse(path, info.st_mode);
  return info;
}

// Closes a descriptor when it goes out of scope (error paths); release() hands it back.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

void write_all(int fd, std::string_view data, const fs::path& path) {
  while (!data.empty()) {
    const ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail("cannot write " + path.string());
    data.remove_prefix(static_cast<std::size_t>(written));
  }
}

// Flushes a file's data to the disk itself (on macOS fsync only reaches the drive's cache).
int flush_to_disk(int fd) {
#ifdef F_FULLFSYNC
  if (::fcntl(fd, F_FULLFSYNC) == 0) return 0;
#endif
  return ::fsync(fd);
}

fs::path directory_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

bool process_is_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

// While alive, a write past the file-size limit (`ulimit -f`) fails with EFBIG, as a write to a
// full disk fails, instead of killing the program with SIGXFSZ before it can say what was not
// saved; the program's own handling of the signal is restored after.
class FileSizeLimitFailsWrites {
 public:
  FileSizeLimitFailsWrites() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGXFSZ, &ignore, &previous_);
  }
  ~FileSizeLimitFailsWrites() { ::sigaction(SIGXFSZ, &previous_, nullptr); }
  FileSizeLimitFailsWrites(const FileSizeLimitFailsWrites&) = delete;
  FileSizeLimitFailsWrites& operator=(const FileSizeLimitFailsWrites&) = delete;

 private:
  struct sigaction previous_ {};
};

}  // namespace

std::optional<std::string> read_state_file(const fs::path& path, std::size_t limit) {
  if (!regular_file_at(path))
    return std::nullopt;  // checked before opening: a device is never opened
  // O_NONBLOCK: something swapped in since the check (a FIFO) must not hang the open.
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    if (errno == ELOOP) refuse(path, S_IFLNK);
    fail("cannot read " + path.string());
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) fail("cannot read " + path.string());
  if (!S_ISREG(info.st_mode)) refuse(path, info.st_mode);
  std::string text;
  char buffer[8192];
  while (text.size() < limit) {
    const ssize_t got = ::read(fd.get(), buffer, std::min(sizeof buffer, limit - text.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail("cannot read " + path.string());
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  return text;
}

void replace_state_file(const fs::path& path, std::string_view contents) {
  regular_file_at(path);  // never replace a directory, a FIFO, a device or a symbolic link
  fs::path temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid());
  ::unlink(temporary.c_str());  // left by an earlier process that had this process id
  Descriptor fd(
      ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666));
  if (fd.get() < 0) fail("cannot create " + temporary.string());
  const FileSizeLimitFailsWrites limit_fails_writes;
  try {
    write_all(fd.get(), contents, temporary);
    if (flush_to_disk(fd.get()) != 0) fail("cannot write " + temporary.string());
    if (::close(fd.release()) != 0)
      fail("cannot write " + temporary.string());  // NFS reports late errors here
    if (::rename(temporary.c_str(), path.c_str()) != 0) fail("cannot replace " + path.string());
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  // The rename is durable only once the directory is on the disk too.
  Descriptor directory(::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.get() < 0 || (::fsync(directory.get()) != 0 && errno != EINVAL)) {
    fail("replaced " + path.string() + " but cannot flush its directory");
  }
}

fs::path set_aside_state_file(const fs::path& path, std::string_view suffix) {
  fs::path aside = path;
  aside += suffix;
  for (int n = 2; fs::symlink_status(aside).type() != fs::file_type::not_found; ++n) {
    aside = path;
    aside += std::string(suffix) + "-" + std::to_string(n);
  }
  if (::rename(path.c_str(), aside.c_str()) != 0) fail("cannot move " + path.string() + " aside");
  return aside;
}

void remove_stale_temporaries(const fs::path& path) {
  const std::string prefix = path.filename().string() + ".tmp-";
  DIR* directory = ::opendir(directory_of(path).c_str());
  if (directory == nullptr) return;
  while (const dirent* entry = ::readdir(directory)) {
    const std::string_view name = entry->d_name;
    if (name.substr(0, prefix.size()) != prefix) continue;
    const std::string_view digits = name.substr(prefix.size());
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string_view::npos)
      continue;
    const pid_t pid = static_cast<pid_t>(std::stol(std::string(digits)));
    const fs::path stale = directory_of(path) / name;
    struct stat info {};
    if (pid != ::getpid() && process_is_gone(pid) && ::lstat(stale.c_str(), &info) == 0 &&
        S_ISREG(info.st_mode)) {
      ::unlink(stale.c_str());
    }
  }
  ::closedir(directory);
}

StateFileLock::StateFileLock(const fs::path& path) : fd_(-1) {
  const fs::path directory = directory_of(path);
  std::error_code created;
  fs::create_directories(directory, created);
  if (created)
    throw StateFileError("cannot create the directory " + directory.string() + ": " +
                         created.message());
  fs::path lock = path;
  lock += ".lock";
  Descriptor fd(::open(lock.c_str(),
                       O_RDWR | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0666));
  if (fd.get() < 0)
    fail("cannot write in " + directory.string() + " (to create " + lock.filename().string() + ")");
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) fail("cannot use " + lock.string());
  if (!S_ISREG(info.st_mode)) refuse(lock, info.st_mode);
  while (::flock(fd.get(), LOCK_EX) != 0) {
    if (errno != EINTR) fail("cannot lock " + lock.string());
  }
  fd_ = fd.release();
}

StateFileLock::~StateFileLock() { ::close(fd_); }  // closing releases the lock

}  // namespace engine::notebook
