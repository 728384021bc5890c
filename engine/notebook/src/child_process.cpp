// posix_spawn, with one pipe for both of a collected child's output streams and one for its
// completion channel; collected_run.cpp waits for it.

#include "engine/notebook/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "collected_run.h"
#include "engine/notebook/completion_channel.h"

extern char** environ;

namespace engine::notebook {
namespace {

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

// A pipe whose ends are above the descriptors a child is given (0 to 3) and closed in every
// program this one starts, so a child holds only the end it is given, where it is given it.
class Pipe {
 public:
  Pipe() {
    int fds[2];
    if (pipe(fds) != 0) return;
    read_end_ = fcntl(fds[0], F_DUPFD_CLOEXEC, kLowest);
    write_end = fcntl(fds[1], F_DUPFD_CLOEXEC, kLowest);
    close(fds[0]);
    close(fds[1]);
  }
  ~Pipe() {
    close_write_end();
    if (read_end_ >= 0) close(read_end_);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;

  bool made() const { return read_end_ >= 0 && write_end >= 0; }
  void close_write_end() {
    if (write_end >= 0) close(std::exchange(write_end, -1));
  }
  int take_read_end() { return std::exchange(read_end_, -1); }

  int write_end = -1;

 private:
  static constexpr int kLowest = 10;
  int read_end_ = -1;
};

// A collected program leads a process group of its own, so that it ends with every process it
// started, and a terminal's Ctrl-C reaches the course, which ends the group (collected_run.cpp).
class OwnProcessGroup {
 public:
  OwnProcessGroup() {
    posix_spawnattr_init(&attributes_);
    posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes_, 0);
  }
  ~OwnProcessGroup() { posix_spawnattr_destroy(&attributes_); }
  OwnProcessGroup(const OwnProcessGroup&) = delete;
  OwnProcessGroup& operator=(const OwnProcessGroup&) = delete;
  posix_spawnattr_t* get() { return &attributes_; }

 private:
  posix_spawnattr_t attributes_;
};

// posix_spawn sets no resource limits, and a child inherits ours: while this object lives, our
// own address-space limit is lowered to `bytes` (0: left alone), for the moment of the spawn.
// Meanwhile this process maps only the new process's stack; it runs one spawn at a time.
class InheritedAddressSpaceLimit {
 public:
  explicit InheritedAddressSpaceLimit(std::uint64_t bytes) {
    if (kUnderAddressSanitizer || bytes == 0 || getrlimit(RLIMIT_AS, &ours_) != 0) return;
    rlimit lowered = ours_;
    lowered.rlim_cur = ours_.rlim_max == RLIM_INFINITY
                           ? static_cast<rlim_t>(bytes)
                           : std::min(static_cast<rlim_t>(bytes), ours_.rlim_max);
    lowered_ = lowered.rlim_cur < ours_.rlim_cur && setrlimit(RLIMIT_AS, &lowered) == 0;
  }
  ~InheritedAddressSpaceLimit() {
    if (lowered_) setrlimit(RLIMIT_AS, &ours_);
  }
  InheritedAddressSpaceLimit(const InheritedAddressSpaceLimit&) = delete;
  InheritedAddressSpaceLimit& operator=(const InheritedAddressSpaceLimit&) = delete;

 private:
  rlimit ours_{};
  bool lowered_ = false;
};

}  // namespace

Finished run_collecting(const std::vector<std::string>& argv,
                        std::optional<std::chrono::seconds> limit,
                        const Surroundings& surroundings) {
  Pipe output, completion;
  if (!output.made() || (surroundings.completion_channel && !completion.made()))
    return {.status = 127, .output = cannot_start(argv, errno) + "\n"};
  FileActions actions;
  posix_spawn_file_actions_addopen(
      actions.get(), STDIN_FILENO,
      surroundings.input.empty() ? "/dev/null" : surroundings.input.c_str(), O_RDONLY, 0);
  if (!surroundings.directory.empty()) {
    posix_spawn_file_actions_addchdir_np(actions.get(), surroundings.directory.c_str());
  }
  posix_spawn_file_actions_adddup2(actions.get(), output.write_end, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(actions.get(), output.write_end, STDERR_FILENO);
  std::vector<std::string> changes = surroundings.environment;
  if (surroundings.completion_channel) {
    posix_spawn_file_actions_adddup2(actions.get(), completion.write_end, kCompletionChannelFd);
    changes.push_back(std::string(kCompletionChannelVariable) + "=" +
                      std::to_string(kCompletionChannelFd));
  }
  OwnProcessGroup group;
  pid_t pid = 0;
  std::vector<char*> args = c_arguments(argv);
  std::vector<char*> environment = environment_with(changes);
  int error = 0;
  {
    const InheritedAddressSpaceLimit memory(surroundings.memory_limit);
    error =
        posix_spawnp(&pid, args[0], actions.get(), group.get(), args.data(), environment.data());
  }
  output.close_write_end();
  completion.close_write_end();
  if (error != 0) return {.status = 127, .output = cannot_start(argv, error) + "\n"};
  return collect(pid, {.output = output.take_read_end(), .completion = completion.take_read_end()},
                 limit);
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
