#include "engine/notebook/completion_channel.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace engine::notebook {
namespace {

int g_channel = -1;

}  // namespace

void take_completion_channel() {
  const char* named = std::getenv(kCompletionChannelVariable);
  if (named == nullptr) return;
  const bool ours = std::string(named) == std::to_string(kCompletionChannelFd);
  unsetenv(kCompletionChannelVariable);
  if (ours && fcntl(kCompletionChannelFd, F_SETFD, FD_CLOEXEC) == 0)
    g_channel = kCompletionChannelFd;
}

void report_completion(std::string_view line) {
  if (g_channel < 0) return;
  std::string text(line);
  text += '\n';
  std::string_view rest = text;
  while (!rest.empty()) {
    const ssize_t written = write(g_channel, rest.data(), rest.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;  // the course has gone: nobody to tell
    rest.remove_prefix(static_cast<std::size_t>(written));
  }
}

}  // namespace engine::notebook
