// Which files changed: modification times compared after each wake-up.

#include "file_watch.h"

#include <system_error>

namespace front_door {
namespace {

namespace fs = std::filesystem;

fs::file_time_type stamp(const fs::path& file) {
  std::error_code error;
  const auto time = fs::last_write_time(file, error);
  return error ? fs::file_time_type::min() : time;  // a missing file: any later save is a change
}

// Editors write a file in several steps; waiting this long after the first event lets the
// last one land before we look (and build).
constexpr std::chrono::milliseconds kSettle{15};

}  // namespace

FileWatch::FileWatch(std::vector<fs::path> files) : files_(std::move(files)), events_(files_) {
  for (const fs::path& file : files_) stamps_.push_back(stamp(file));
}

std::vector<fs::path> FileWatch::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    std::chrono::milliseconds left{-1};
    if (timeout.count() >= 0) {
      left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() < 0) return {};
    }
    if (!events_.wait(left)) return {};
    while (events_.wait(kSettle)) {
    }
    std::vector<fs::path> changed;
    for (std::size_t i = 0; i < files_.size(); ++i) {
      const auto now = stamp(files_[i]);
      if (now != stamps_[i]) {
        stamps_[i] = now;
        changed.push_back(files_[i]);
      }
    }
    if (!changed.empty()) return changed;
  }
}

}  // namespace front_door
