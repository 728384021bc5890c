// posix_spawn, with one pipe for both of a collected child's output streams.

#include "engine/notebook/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string_view>

extern char** environ;

namespace engine::notebook {
namespace {

int exit_status(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 127;
  }
  return exit_status(status);
}

std::vector<char*> c_arguments(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return args;
}

std::string cannot_start(const std::vector<std::string>& argv, int error) {
  return "cannot run " + argv.front() + ": " + std::strerror(error);
}

std::vector<char*> environment_without_pytorch_variables() {
  std::vector<char*> kept;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    if (std::string_view(*variable).rfind("PYTORCH_", 0) != 0) kept.push_back(*variable);
  }
  kept.push_back(nullptr);
  return kept;
}

class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

// The output files of a command run in parallel.
void send_output_to_files(const Command& command, FileActions& actions) {
  constexpr int kFlags = O_WRONLY | O_CREAT | O_TRUNC;
  posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, command.output.c_str(), kFlags,
                                   0644);
  if (command.errors.empty()) {
    posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);
  } else {
    posix_spawn_file_actions_addopen(actions.get(), STDERR_FILENO, command.errors.c_str(), kFlags,
                                     0644);
  }
}

std::string_view variable_name(std::string_view entry) { return entry.substr(0, entry.find('=')); }

// This program's environment with `changes` (NAME=value, the last of one name wins) applied;
// the strings stay owned by `changes` and by environ.
std::vector<char*> environment_with(const std::vector<std::string>& changes) {
  auto changed_after = [&](std::size_t first, std::string_view entry) {
    return std::any_of(
        changes.begin() + static_cast<std::ptrdiff_t>(first), changes.end(),
        [&](const std::string& c) { return variable_name(c) == variable_name(entry); });
  };
  std::vector<char*> result;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    if (!changed_after(0, *variable)) result.push_back(*variable);
  }
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (!changed_after(i + 1, changes[i])) result.push_back(const_cast<char*>(changes[i].c_str()));
  }
  result.push_back(nullptr);
  return result;
}

}  // namespace

Finished run_collecting(const std::vector<std::string>& argv,
                        std::optional<std::chrono::seconds> limit,
                        const Surroundings& surroundings) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {127, cannot_start(argv, errno) + "\n"};
  FileActions actions;
  if (!surroundings.input.empty()) {
    posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, surroundings.input.c_str(),
                                     O_RDONLY, 0);
  }
  if (!surroundings.directory.empty()) {
    posix_spawn_file_actions_addchdir_np(actions.get(), surroundings.directory.c_str());
  }
  posix_spawn_file_actions_adddup2(actions.get(), pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(actions.get(), pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(actions.get(), pipe_fds[0]);
  posix_spawn_file_actions_addclose(actions.get(), pipe_fds[1]);
  pid_t pid = 0;
  std::vector<char*> args = c_arguments(argv);
  std::vector<char*> environment = environment_with(surroundings.environment);
  const int error =
      posix_spawnp(&pid, args[0], actions.get(), nullptr, args.data(), environment.data());
  close(pipe_fds[1]);
  if (error != 0) {
    close(pipe_fds[0]);
    return {127, cannot_start(argv, error) + "\n"};
  }
  Finished finished;
  const auto deadline = limit ? std::chrono::steady_clock::now() + *limit
                              : std::chrono::steady_clock::time_point::max();
  char buffer[4096];
  for (;;) {
    int wait_ms = -1;  // no limit: as long as it takes
    if (limit) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
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

int run_attached(const std::vector<std::string>& argv) {
  pid_t pid = 0;
  std::vector<char*> args = c_arguments(argv);
  const int error = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (error != 0) {
    const std::string message = cannot_start(argv, error) + "\n";
    static_cast<void>(write(STDERR_FILENO, message.data(), message.size()));
    return 127;
  }
  return wait_for(pid);
}

std::string signal_ended(int status) {
  if (status <= 128 || status >= 128 + 64) return "";
  const char* name = strsignal(status - 128);
  return (name != nullptr ? std::string(name) + ", " : "") + "signal " +
         std::to_string(status - 128);
}

std::vector<int> run_in_parallel(const std::vector<Command>& commands, unsigned jobs) {
  std::vector<char*> environment = environment_without_pytorch_variables();
  std::vector<int> statuses(commands.size(), 0);
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  while (next < commands.size() || !running.empty()) {
    while (next < commands.size() && running.size() < std::max(1u, jobs)) {
      const Command& command = commands[next];
      FileActions actions;
      send_output_to_files(command, actions);
      std::vector<char*> argv = c_arguments(command.argv);
      pid_t pid = 0;
      const int error =
          posix_spawn(&pid, argv[0], actions.get(), nullptr, argv.data(), environment.data());
      if (error != 0) throw std::runtime_error(cannot_start(command.argv, error));
      running[pid] = next++;
    }
    int wait_status = 0;
    const pid_t done = waitpid(-1, &wait_status, 0);
    if (done < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waiting for the programs failed: ") +
                               std::strerror(errno));
    }
    const auto it = running.find(done);
    if (it == running.end()) continue;
    statuses[it->second] = exit_status(wait_status);
    running.erase(it);
  }
  return statuses;
}

}  // namespace engine::notebook
