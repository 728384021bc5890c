// lab_compile: the compiler launcher of a learner's lab program (cmake/TutorLabs.cmake). It runs
// the compiler on the learner's file within a time and a memory limit, so that a file that
// includes /dev/zero or a FIFO, or whose templates never stop expanding, fails to compile with
// a reason instead of eating the computer's memory or holding `course verify` forever.
//   lab_compile COMPILER ARGUMENTS...
// The limits: 1 GiB of address space (none in a build under AddressSanitizer, see
// child_process.h), and the lab programs' own last resort, six times MPS_COURSE_TIME_LIMIT
// (60 s by default). The exit status is the compiler's, or 1 when a limit stopped it.

#include <csignal>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/notebook/child_process.h"
#include "engine/notebook/stopped_code.h"

namespace {

constexpr std::uint64_t kMemoryLimit = std::uint64_t{1} << 30;  // a lab file takes about 100 MB

// What compilers say when an allocation fails: GCC's "out of memory allocating ..." and
// "virtual memory exhausted", clang's "LLVM ERROR: out of memory", a std::bad_alloc.
bool ran_out_of_memory(const engine::notebook::Finished& compile) {
  for (const char* words : {"out of memory", "memory exhausted", "bad_alloc"}) {
    if (compile.output.find(words) != std::string::npos) return true;
  }
  return compile.status == 128 + SIGKILL || compile.status == 128 + SIGSEGV;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: lab_compile COMPILER ARGUMENTS...\n";
    return 2;
  }
  std::chrono::seconds limit{};
  try {
    limit = 6 * std::chrono::seconds(engine::notebook::time_limit_seconds());
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
  const engine::notebook::Finished compile = engine::notebook::run_collecting(
      std::vector<std::string>(argv + 1, argv + argc), limit, {.memory_limit = kMemoryLimit});
  std::cout << compile.output << std::flush;
  if (compile.stopped) {
    std::cout << "error: the compiler was still compiling this file after " << limit.count()
              << " s, and was stopped: does it include a file that never ends, such as a FIFO, "
                 "or templates that never stop expanding?\n";
    return 1;
  }
  if (compile.status != 0 && ran_out_of_memory(compile)) {
    std::cout << "error: compiling this file took more than the " << (kMemoryLimit >> 30)
              << " GiB of memory a compile may use, and was stopped: does it include a file "
                 "that never ends, such as /dev/zero?\n";
  }
  return compile.status;
}
