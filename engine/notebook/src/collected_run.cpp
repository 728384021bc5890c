// The wait is a poll on the pipes that wakes at least every kCheckEvery to ask whether the
// program has ended (waitid with WNOWAIT, which leaves it unreaped): its process group's id
// cannot be taken by another process before it is reaped, so ending the group is safe until then.

#include "collected_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <string>
#include <string_view>

namespace engine::notebook {
namespace {

using Clock = std::chrono::steady_clock;

// How often a run whose output is still open is asked whether it has ended; once its output
// has closed, it is about to end, and is asked at once.
constexpr auto kCheckEvery = std::chrono::milliseconds(20);
constexpr auto kCheckSoon = std::chrono::milliseconds(1);

// Of a flood of output, a learner reads the start and the end; both fit in memory.
constexpr std::size_t kKeptHead = std::size_t{256} << 10;
constexpr std::size_t kKeptTail = std::size_t{64} << 10;
// A completion record is a line per check; more is not a record.
constexpr std::size_t kKeptCompletion = std::size_t{1} << 20;
// What is read after the program ended (from processes of other groups that keep writing).
constexpr std::size_t kDrainedAfterEnd = std::size_t{4} << 20;

// "7 MiB", "12 KiB": a size as the cut's note says it, rounded down, at least 1 KiB.
std::string size_in_words(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20)) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(std::max<std::size_t>(1, bytes >> 10)) + " KiB";
}

// What is kept of a program's output: all of it, or its first kKeptHead and last kKeptTail bytes
// with a note where the middle was cut, each part cut at a line's end.
class KeptOutput {
 public:
  void append(std::string_view data) {
    total_ += data.size();
    const std::size_t to_head = std::min(data.size(), kKeptHead - head_.size());
    head_.append(data.substr(0, to_head));
    tail_.append(data.substr(to_head));
    if (tail_.size() > 2 * kKeptTail) tail_.erase(0, tail_.size() - kKeptTail);
  }

  std::string text() const {
    if (total_ <= kKeptHead + kKeptTail) return head_ + tail_;
    std::string_view head = head_;
    if (const auto end = head.rfind('\n'); end != std::string_view::npos)
      head = head.substr(0, end + 1);
    std::string_view tail = std::string_view(tail_).substr(tail_.size() - kKeptTail);
    if (const auto start = tail.find('\n'); start != std::string_view::npos)
      tail = tail.substr(start + 1);
    const std::size_t cut = total_ - head.size() - tail.size();
    return std::string(head) + "[... " + size_in_words(cut) +
           " of output cut here: what a program prints is kept up to its first " +
           size_in_words(kKeptHead) + " and its last " + size_in_words(kKeptTail) + " ...]\n" +
           std::string(tail);
  }

 private:
  std::string head_, tail_;
  std::size_t total_ = 0;
};

// One pipe's read end, read without blocking.
class PipeReader {
 public:
  explicit PipeReader(int fd) : fd_(fd) {
    if (fd_ >= 0) fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) | O_NONBLOCK);
  }
  ~PipeReader() {
    if (fd_ >= 0) close(fd_);
  }
  PipeReader(const PipeReader&) = delete;
  PipeReader& operator=(const PipeReader&) = delete;

  bool open() const { return fd_ >= 0 && !closed_; }
  int fd() const { return fd_; }

  // Reads one chunk if one is waiting; returns how many bytes it passed to `keep`.
  template <typename Keep>
  std::size_t read_some(Keep&& keep) {
    if (!open()) return 0;
    std::array<char, 65536> buffer;
    const ssize_t n = read(fd_, buffer.data(), buffer.size());
    if (n > 0) {
      keep(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
      return static_cast<std::size_t>(n);
    }
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) closed_ = true;
    return 0;
  }

 private:
  int fd_;
  bool closed_ = false;
};

// While a program runs in a process group of its own, a Ctrl-C on the terminal reaches only
// this process: these signals are noted, the program's group is ended, and then each is
// delivered here as it would have been. A signal this process ignores stays ignored.
volatile sig_atomic_t g_received_signal = 0;
extern "C" void note_signal(int signal) { g_received_signal = signal; }
constexpr std::array<int, 3> kEndingSignals = {SIGINT, SIGTERM, SIGHUP};

class EndingSignals {
 public:
  EndingSignals() {
    g_received_signal = 0;
    struct sigaction noting {};
    noting.sa_handler = note_signal;
    sigemptyset(&noting.sa_mask);
    for (std::size_t i = 0; i < kEndingSignals.size(); ++i) {
      sigaction(kEndingSignals[i], &noting, &previous_[i]);
      if (previous_[i].sa_handler == SIG_IGN) sigaction(kEndingSignals[i], &previous_[i], nullptr);
    }
  }
  ~EndingSignals() {
    for (std::size_t i = 0; i < kEndingSignals.size(); ++i)
      sigaction(kEndingSignals[i], &previous_[i], nullptr);
    if (g_received_signal != 0) raise(g_received_signal);
  }
  EndingSignals(const EndingSignals&) = delete;
  EndingSignals& operator=(const EndingSignals&) = delete;

  bool received() const { return g_received_signal != 0; }

 private:
  std::array<struct sigaction, kEndingSignals.size()> previous_{};
};

// Whether the child `pid` has ended, leaving it to be reaped.
bool has_ended(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid != 0;
}

// Waits until either pipe has something to read, or `timeout` passes.
void wait_for_data(const PipeReader& output, const PipeReader& completion,
                   std::chrono::milliseconds timeout) {
  std::array<pollfd, 2> fds{};
  nfds_t count = 0;
  for (const PipeReader* reader : {&output, &completion}) {
    if (reader->open()) fds[count++] = {.fd = reader->fd(), .events = POLLIN, .revents = 0};
  }
  poll(fds.data(), count, static_cast<int>(timeout.count()));
}

// Reads what the program wrote before it ended, still in the pipe; a process of another group may
// still be writing, so only what is there, and at most kDrainedAfterEnd.
template <typename Keep>
void drain(PipeReader& pipe, Keep&& keep) {
  for (std::size_t drained = 0, n = 1; n > 0 && drained < kDrainedAfterEnd; drained += n)
    n = pipe.read_some(keep);
}

}  // namespace

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

Finished collect(pid_t pid, CollectedPipes pipes, std::optional<std::chrono::seconds> limit) {
  const EndingSignals signals;
  const auto deadline = limit ? Clock::now() + *limit : Clock::time_point::max();
  PipeReader output_pipe(pipes.output), completion_pipe(pipes.completion);
  KeptOutput output;
  Finished finished;
  const auto keep_output = [&](std::string_view data) { output.append(data); };
  const auto keep_completion = [&](std::string_view data) {
    finished.completion.append(
        data.substr(0, kKeptCompletion - std::min(kKeptCompletion, finished.completion.size())));
  };
  while (!has_ended(pid) && !signals.received()) {
    const auto now = Clock::now();
    if (now >= deadline) {
      finished.stopped = true;
      break;
    }
    const auto slice = output_pipe.open() ? kCheckEvery : kCheckSoon;
    wait_for_data(output_pipe, completion_pipe,
                  std::min(std::chrono::ceil<std::chrono::milliseconds>(deadline - now), slice));
    output_pipe.read_some(keep_output);
    completion_pipe.read_some(keep_completion);
  }
  kill(-pid, SIGKILL);  // what is left of its group; all of it at the limit or on a signal
  drain(output_pipe, keep_output);
  drain(completion_pipe, keep_completion);
  finished.status = wait_for(pid);
  finished.output = output.text();
  return finished;
}

}  // namespace engine::notebook
