#include "child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string_view>

extern char** environ;

namespace site {
namespace {

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
  explicit FileActions(const Command& command) {
    posix_spawn_file_actions_init(&actions_);
    constexpr int kFlags = O_WRONLY | O_CREAT | O_TRUNC;
    posix_spawn_file_actions_addopen(&actions_, STDOUT_FILENO, command.output.c_str(), kFlags, 0644);
    if (command.errors.empty()) {
      posix_spawn_file_actions_adddup2(&actions_, STDOUT_FILENO, STDERR_FILENO);
    } else {
      posix_spawn_file_actions_addopen(&actions_, STDERR_FILENO, command.errors.c_str(), kFlags, 0644);
    }
  }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  const posix_spawn_file_actions_t* get() const { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

pid_t start(const Command& command, const std::vector<char*>& environment) {
  std::vector<char*> argv;
  for (const std::string& arg : command.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const FileActions actions(command);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, argv[0], actions.get(), nullptr, argv.data(), environment.data());
  if (error != 0) throw std::runtime_error("cannot run " + command.argv.front() + ": " + std::strerror(error));
  return pid;
}

int exit_status(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

}  // namespace

std::vector<int> run_commands(const std::vector<Command>& commands, unsigned jobs) {
  const std::vector<char*> environment = environment_without_pytorch_variables();
  std::vector<int> statuses(commands.size(), 0);
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  while (next < commands.size() || !running.empty()) {
    while (next < commands.size() && running.size() < std::max(1u, jobs)) {
      running[start(commands[next], environment)] = next;
      ++next;
    }
    int wait_status = 0;
    const pid_t done = waitpid(-1, &wait_status, 0);
    if (done < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waiting for the lesson programs failed: ") + std::strerror(errno));
    }
    const auto it = running.find(done);
    if (it == running.end()) continue;
    statuses[it->second] = exit_status(wait_status);
    running.erase(it);
  }
  return statuses;
}

}  // namespace site
