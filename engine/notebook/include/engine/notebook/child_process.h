#pragma once
// Running the course's other programs: the build, a lab's tests, a lesson, the quiz (the
// course command); every lesson on every machine, several at a time (the site). posix_spawn,
// on Linux and macOS alike.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace engine::notebook {

// Under AddressSanitizer, which reserves terabytes of address space for its shadow memory, no
// memory limit can hold, neither for this program nor for the course's programs built the same
// way: such a build sets none. And a crash is reported in the sanitizer's words.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAddressSanitizer = true;
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif

struct Finished {
  int status = 0;            // the exit status; 128 + the signal's number if a signal ended it
  std::string output{};      // stdout and stderr as they came, interleaved
  bool stopped = false;      // still running at the time limit, and killed
  std::string completion{};  // what it wrote on its completion channel (completion_channel.h)
};

// Where a collected program runs, when it is not simply here, in this program's environment. Each
// field has its default, so that a caller names only those it sets.
struct Surroundings {
  std::vector<std::string> environment{};  // NAME=value entries that add to or replace ours
  std::string directory{};                 // its working directory; empty: ours
  std::string input{};                     // a file it reads as stdin; empty: none (/dev/null)
  // Bytes of address space it may map (RLIMIT_AS, which Linux enforces and macOS does not); 0:
  // none, as in a build under AddressSanitizer (kUnderAddressSanitizer).
  std::uint64_t memory_limit = 0;
  bool completion_channel = false;  // give it a completion channel
};

// Runs `argv` and collects what it prints. A program that cannot be started finishes with
// status 127 and says why in `output`. The program leads a process group of its own: when it
// ends, every process it started and left running is killed, and the wait is over (they may
// hold its output open); at `limit` the whole group is killed. A Ctrl-C (SIGINT, or SIGTERM,
// SIGHUP) meanwhile ends the group, then this program as it would have. Of its output, the first
// 256 KiB and the last 64 KiB are kept, with a note where the rest was cut. Call it from one
// thread at a time: it lowers this program's address-space limit for the moment of a spawn.
Finished run_collecting(const std::vector<std::string>& argv,
                        std::optional<std::chrono::seconds> limit = std::nullopt,
                        const Surroundings& surroundings = {});

// Runs `argv` on this terminal: it reads our stdin and prints to our stdout and stderr.
int run_attached(const std::vector<std::string>& argv);

// A status of 128 + n: "Segmentation fault, signal 11"; empty for a program that exited.
std::string signal_ended(int status);

struct Command {
  std::vector<std::string> argv;  // argv[0] is the program's path
  std::string output;             // stdout goes to this file
  std::string errors;             // stderr goes to this file; empty: to `output`
};

// Runs every command, at most `jobs` at a time, the way a build tool runs its jobs, and returns
// each one's exit status. The children inherit this program's environment without the PYTORCH_
// variables, which the lessons read as a Python program would: what runs shows what the
// lessons print by default. Throws std::runtime_error if a command cannot be started.
std::vector<int> run_in_parallel(const std::vector<Command>& commands, unsigned jobs);

}  // namespace engine::notebook
