// ChangeEvents on Linux: inotify watches on the files' directories, so a file replaced by a
// rename is still seen (a watch on the file itself would follow the old one).

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <set>
#include <system_error>

#include "file_watch.h"

namespace front_door {

struct ChangeEvents::Impl {
  int fd = -1;
};

ChangeEvents::ChangeEvents(const std::vector<std::filesystem::path>& files)
    : impl_(std::make_unique<Impl>()) {
  impl_->fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (impl_->fd < 0) throw std::system_error(errno, std::generic_category(), "inotify_init1");
  std::set<std::filesystem::path> directories;
  for (const auto& file : files) directories.insert(file.parent_path());
  for (const auto& directory : directories) {
    const uint32_t saves = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ATTRIB;
    if (inotify_add_watch(impl_->fd, directory.c_str(), saves) < 0) {
      throw std::system_error(errno, std::generic_category(),
                              "inotify_add_watch " + directory.string());
    }
  }
}

ChangeEvents::~ChangeEvents() { close(impl_->fd); }

bool ChangeEvents::wait(std::chrono::milliseconds timeout) {
  pollfd ready{impl_->fd, POLLIN, 0};
  const int count = poll(&ready, 1, timeout.count() < 0 ? -1 : static_cast<int>(timeout.count()));
  if (count <= 0) return false;  // a timeout, or a signal: the caller looks again
  alignas(inotify_event) char buffer[4096];
  while (read(impl_->fd, buffer, sizeof buffer) > 0) {
  }
  return true;
}

}  // namespace front_door
