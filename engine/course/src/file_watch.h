#pragma once
// Waiting for the learner to save a file. Editors save in two ways, writing the file in place
// or writing a new file and renaming it over the old one; both count, and so does a file
// deleted, or put back (its folder too: a folder removed and restored is watched again). The
// operating system wakes us (change_events_inotify.cpp on Linux, change_events_kqueue.cpp on
// macOS), and modification times say which of the files changed.

#include <chrono>
#include <filesystem>
#include <memory>
#include <vector>

namespace front_door {

// The operating system's notifications for a set of files, whatever they are.
class ChangeEvents {
 public:
  explicit ChangeEvents(const std::vector<std::filesystem::path>& files);
  ~ChangeEvents();
  ChangeEvents(const ChangeEvents&) = delete;
  ChangeEvents& operator=(const ChangeEvents&) = delete;
  // True when something may have changed within `timeout` (negative: no limit).
  bool wait(std::chrono::milliseconds timeout);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class FileWatch {
 public:
  explicit FileWatch(std::vector<std::filesystem::path> files);
  // The files saved, deleted or put back since the last call (or since construction), in the
  // order given; waits for at least one, or until `timeout` passes (negative: no limit), then
  // returns none.
  std::vector<std::filesystem::path> wait(std::chrono::milliseconds timeout);

 private:
  std::vector<std::filesystem::path> files_;
  std::vector<std::filesystem::file_time_type> stamps_;
  ChangeEvents events_;
};

}  // namespace front_door
