#pragma once
// Whether a process the test started (and left behind) has ended. One whose parent has gone is
// reaped by the system's first process some time after it ends, and a container's may never
// reap it: until then it is a zombie, which has ended too. Linux says so in /proc; elsewhere
// (macOS) ps does.

#include <signal.h>
#include <sys/types.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "engine/notebook/child_process.h"

// Waits up to two seconds for `pid` to end.
inline bool process_ends_soon(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::string state;
    if (std::ifstream stat("/proc/" + std::to_string(pid) + "/stat"); stat) {
      std::string field;
      stat >> field >> field >> state;  // pid, (name), state: names without spaces here
    } else {
      state = engine::notebook::run_collecting({"ps", "-o", "stat=", "-p", std::to_string(pid)},
                                               std::chrono::seconds(5))
                  .output;
    }
    if (state.rfind('Z', 0) == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}
