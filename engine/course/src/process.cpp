// posix_spawn with one pipe for both of the child's output streams.

#include "process.h"

#include "engine/notebook/stopped_code.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

extern char** environ;

namespace front_door {
namespace {

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 127;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::vector<char*> c_arguments(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return args;
}

std::string cannot_start(const std::vector<std::string>& argv, int error) {
  return "cannot run " + argv.front() + ": " + std::strerror(error) + "\n";
}

}  // namespace

std::chrono::seconds learner_program_limit() {
  return std::chrono::seconds(6 * engine::notebook::time_limit_seconds());
}

Finished run_collecting(const std::vector<std::string>& argv, std::optional<std::chrono::seconds> limit) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {127, cannot_start(argv, errno)};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  pid_t pid = 0;
  std::vector<char*> args = c_arguments(argv);
  const int error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  Finished finished;
  if (error != 0) {
    close(pipe_fds[0]);
    return {127, cannot_start(argv, error)};
  }
  const auto deadline = limit ? std::chrono::steady_clock::now() + *limit : std::chrono::steady_clock::time_point::max();
  char buffer[4096];
  for (;;) {
    int wait_ms = -1;  // no limit: as long as it takes
    if (limit) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      wait_ms = static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1 << 30));
    }
    pollfd ready{.fd = pipe_fds[0], .events = POLLIN, .revents = 0};
    const int polled = poll(&ready, 1, wait_ms);
    if (polled == 0) {  // the time limit: stop it, and keep what it printed
      kill(pid, SIGKILL);
      finished.stopped = true;
      break;
    }
    if (polled < 0) {
      if (errno == EINTR) continue;
      break;
    }
    const ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
    if (n > 0) {
      finished.output.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(pipe_fds[0]);
  finished.status = wait_for(pid);
  return finished;
}

std::string signal_ended(int status) {
  if (status <= 128 || status >= 128 + 64) return "";
  const char* name = strsignal(status - 128);
  return (name != nullptr ? std::string(name) + ", " : "") + "signal " + std::to_string(status - 128);
}

int run_attached(const std::vector<std::string>& argv) {
  pid_t pid = 0;
  std::vector<char*> args = c_arguments(argv);
  const int error = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (error != 0) {
    const std::string message = cannot_start(argv, error);
    static_cast<void>(write(STDERR_FILENO, message.data(), message.size()));
    return 127;
  }
  return wait_for(pid);
}

}  // namespace front_door
