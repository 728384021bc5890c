// ChangeEvents on Linux: inotify watches on the files' directories, so a file replaced by a
// rename is still seen (a watch on the file itself would follow the old one), and on the folders
// above them, so a directory removed and put back (a lab folder restored from a copy) is watched
// again: every wake-up watches each directory anew, which for one still watched changes nothing.

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <set>
#include <system_error>
#include <vector>

#include "file_watch.h"

namespace front_door {

struct ChangeEvents::Impl {
  int fd = -1;
  std::vector<std::filesystem::path> directories;

  // A directory that is not there now is watched once it is back (its parent reports it).
  void watch_all() {
    const uint32_t changes = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE |
                             IN_ATTRIB | IN_ONLYDIR;
    for (const auto& directory : directories) {
      if (inotify_add_watch(fd, directory.c_str(), changes) < 0 && errno != ENOENT &&
          errno != ENOTDIR) {
        throw std::system_error(errno, std::generic_category(),
                                "inotify_add_watch " + directory.string());
      }
    }
  }
};

ChangeEvents::ChangeEvents(const std::vector<std::filesystem::path>& files)
    : impl_(std::make_unique<Impl>()) {
  impl_->fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (impl_->fd < 0) throw std::system_error(errno, std::generic_category(), "inotify_init1");
  std::set<std::filesystem::path> directories;
  for (const auto& file : files) {
    directories.insert(file.parent_path());
    directories.insert(file.parent_path().parent_path());
  }
  impl_->directories.assign(directories.begin(), directories.end());
  impl_->watch_all();
}

ChangeEvents::~ChangeEvents() { close(impl_->fd); }

bool ChangeEvents::wait(std::chrono::milliseconds timeout) {
  pollfd ready{impl_->fd, POLLIN, 0};
  const int count = poll(&ready, 1, timeout.count() < 0 ? -1 : static_cast<int>(timeout.count()));
  if (count <= 0) return false;  // a timeout, or a signal: the caller looks again
  alignas(inotify_event) char buffer[4096];
  while (read(impl_->fd, buffer, sizeof buffer) > 0) {
  }
  impl_->watch_all();
  return true;
}

}  // namespace front_door
