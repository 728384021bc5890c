// The time limit is an alarm: its handler may only call async-signal-safe functions, so the
// message is composed when the clock starts and the handler writes it whole and exits.

#include "engine/notebook/stopped_code.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace engine::notebook {
namespace {

std::array<char, 4096> g_message{};
std::size_t g_message_size = 0;

extern "C" void time_is_up(int) {
  static_cast<void>(write(STDOUT_FILENO, g_message.data(), g_message_size));
  _exit(124);
}

}  // namespace

int time_limit_seconds() {
  static const int seconds = [] {
    const char* chosen = std::getenv("MPS_COURSE_TIME_LIMIT");
    if (chosen == nullptr || *chosen == '\0') return 10;
    const std::string_view text = chosen;
    const bool digits = text.size() <= 5 && std::all_of(text.begin(), text.end(), [](char c) {
                          return c >= '0' && c <= '9';
                        });
    const int value = digits ? std::stoi(std::string(text)) : 0;
    if (value < 1 || value > kLongestTimeLimit) {
      throw std::invalid_argument("MPS_COURSE_TIME_LIMIT=" + std::string(text.substr(0, 40)) +
                                  " is not a time limit: give whole seconds from 1 to " +
                                  std::to_string(kLongestTimeLimit) + " (without it, 10)");
    }
    return value;
  }();
  return seconds;
}

std::string stopped_after(std::string_view running) {
  return "Stopped after " + std::to_string(time_limit_seconds()) + " s: " + std::string(running) +
         " was still running. Look for a loop whose condition never changes.";
}

void limit_time(std::string_view message) {
  alarm(0);  // no alarm while the message changes
  const int seconds = time_limit_seconds();
  g_message_size = std::min(message.size(), g_message.size());
  std::memcpy(g_message.data(), message.data(), g_message_size);
  struct sigaction action {};
  action.sa_handler = time_is_up;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);
  alarm(static_cast<unsigned>(seconds));
}

void lift_time_limit() { alarm(0); }

std::string crash_description(std::string_view doctest_signal_text) {
  struct Known {
    std::string_view signal, words;
  };
  static constexpr Known kKnown[] = {
      {"SIGSEGV",
       "a segmentation fault (SIGSEGV: memory read or written through a null, dangling or "
       "out-of-range pointer)"},
      {"SIGBUS", "a bus error (SIGBUS: memory read or written at an address that cannot hold it)"},
      {"SIGFPE", "a floating-point exception (SIGFPE: most often an integer divided by zero)"},
      {"SIGABRT", "an abort (SIGABRT: an exception nothing caught, or a failed assert)"},
      {"SIGILL", "an illegal instruction (SIGILL: often a function that returns no value)"},
      {"SIGTERM", "a request to stop (SIGTERM)"},
      {"SIGINT", "an interrupt (SIGINT: Ctrl-C)"},
  };
  for (const Known& known : kKnown) {
    if (doctest_signal_text.rfind(known.signal, 0) == 0) return std::string(known.words);
  }
  return std::string(doctest_signal_text);
}

}  // namespace engine::notebook
