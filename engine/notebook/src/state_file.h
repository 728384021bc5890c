#pragma once
// Internal: a small file of the learner's own state (the progress file), kept safe on disk.
// It is read without blocking and only if it is a regular file; it is replaced durably (a
// temporary file beside it is written, flushed to the disk and checked, then renamed over it,
// and the directory is flushed); and updates serialise on an advisory lock (flock) on a
// "<name>.lock" file beside it, so that every read-modify-write sees the one before it.
// Anything at the path that is not a regular file (a directory, a FIFO, a device, a symbolic
// link) is refused and left exactly as it is.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace engine::notebook {

// The file cannot be read or written; what() names the path and the reason.
class StateFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The file's contents, at most `limit` bytes of them (a caller that wants to notice a file
// that is too large asks for one byte more than it accepts); nullopt if nothing is there.
std::optional<std::string> read_state_file(const std::filesystem::path& path, std::size_t limit);

// Replaces the file with `contents`, durably. On any failure (a full disk, a file-size limit,
// a folder that cannot be written) the old file is left as it was, the temporary file is
// removed, and StateFileError says what failed.
void replace_state_file(const std::filesystem::path& path, std::string_view contents);

// Renames the file to "<name><suffix>" (or "<name><suffix>-2", ..., a name not yet taken) and
// returns the new path.
std::filesystem::path set_aside_state_file(const std::filesystem::path& path,
                                           std::string_view suffix);

// Removes the "<name>.tmp-PID" files of processes that no longer run (killed mid-write).
void remove_stale_temporaries(const std::filesystem::path& path);

// The exclusive lock on updates of the file at `path`, held from construction to destruction.
// Creates the file's directory if needed; blocks while another process holds the lock.
class StateFileLock {
 public:
  explicit StateFileLock(const std::filesystem::path& path);
  ~StateFileLock();
  StateFileLock(const StateFileLock&) = delete;
  StateFileLock& operator=(const StateFileLock&) = delete;

 private:
  int fd_;
};

}  // namespace engine::notebook
