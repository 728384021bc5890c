// ChangeEvents on macOS and the BSDs: kqueue. A directory's vnode reports entries added, removed
// or renamed (an editor's rename-save), a file's vnode writes in place; the folders above the
// files' directories report a directory removed and put back. Everything is opened again after
// every event, since a rename-save leaves the old descriptor on the old file, and a restored
// directory is a new one.

#include <fcntl.h>
#include <sys/event.h>
#include <unistd.h>

#include <set>
#include <system_error>
#include <vector>

#include "file_watch.h"

#ifndef O_EVTONLY
#define O_EVTONLY O_RDONLY  // the BSDs: a read-only descriptor serves the same purpose
#endif

namespace front_door {

struct ChangeEvents::Impl {
  int queue = -1;
  std::vector<std::filesystem::path> paths;  // the directories, then the files
  std::vector<int> descriptors;

  void watch_all() {
    for (const int fd : descriptors) close(fd);
    descriptors.clear();
    std::vector<struct kevent> changes;
    for (const auto& path : paths) {
      const int fd = open(path.c_str(), O_EVTONLY);
      if (fd < 0) continue;  // a file being replaced right now: the directory still reports it
      descriptors.push_back(fd);
      struct kevent change;
      EV_SET(&change, fd, EVFILT_VNODE, EV_ADD | EV_CLEAR,
             NOTE_WRITE | NOTE_EXTEND | NOTE_ATTRIB | NOTE_DELETE | NOTE_RENAME, 0, nullptr);
      changes.push_back(change);
    }
    if (kevent(queue, changes.data(), static_cast<int>(changes.size()), nullptr, 0, nullptr) < 0) {
      throw std::system_error(errno, std::generic_category(), "kevent");
    }
  }
};

ChangeEvents::ChangeEvents(const std::vector<std::filesystem::path>& files)
    : impl_(std::make_unique<Impl>()) {
  impl_->queue = kqueue();
  if (impl_->queue < 0) throw std::system_error(errno, std::generic_category(), "kqueue");
  std::set<std::filesystem::path> directories;
  for (const auto& file : files) {
    directories.insert(file.parent_path());
    directories.insert(file.parent_path().parent_path());
  }
  impl_->paths.assign(directories.begin(), directories.end());
  impl_->paths.insert(impl_->paths.end(), files.begin(), files.end());
  impl_->watch_all();
}

ChangeEvents::~ChangeEvents() {
  for (const int fd : impl_->descriptors) close(fd);
  close(impl_->queue);
}

bool ChangeEvents::wait(std::chrono::milliseconds timeout) {
  struct kevent events[16];
  timespec limit{static_cast<time_t>(timeout.count() / 1000),
                 static_cast<long>(timeout.count() % 1000) * 1000000};
  const int count =
      kevent(impl_->queue, nullptr, 0, events, 16, timeout.count() < 0 ? nullptr : &limit);
  if (count <= 0) return false;
  impl_->watch_all();
  return true;
}

}  // namespace front_door
