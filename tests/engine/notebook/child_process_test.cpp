// Running the course's programs (engine/notebook/child_process.h): a learner's program is bounded
// in time, memory and output, ends with every process it started, and proves that it finished
// through its completion channel, which exiting early cannot fake.

#include "engine/notebook/child_process.h"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "engine/notebook/completion_channel.h"
#include "process_ended.h"
#include "scratch_directory.h"

using engine::notebook::Finished;
using engine::notebook::run_collecting;
using engine::notebook::Surroundings;

namespace {

using Clock = std::chrono::steady_clock;

// Whether this host enforces an address-space limit that a program sets: qemu-user, which runs the
// arm64 build's tests, accepts one and ignores it.
bool address_space_limits_enforced() {
#if defined(__APPLE__)
  return false;  // macOS accepts an address-space limit and does not enforce it
#endif
  rlimit original{};
  getrlimit(RLIMIT_AS, &original);
  rlimit probe = original;
  probe.rlim_cur = original.rlim_cur == RLIM_INFINITY ? rlim_t{1} << 40 : original.rlim_cur - 1;
  setrlimit(RLIMIT_AS, &probe);
  rlimit seen{};
  getrlimit(RLIMIT_AS, &seen);
  setrlimit(RLIMIT_AS, &original);
  return seen.rlim_cur == probe.rlim_cur;
}

pid_t first_line_as_pid(const std::string& output) {
  return static_cast<pid_t>(std::stol(output.substr(0, output.find('\n'))));
}

}  // namespace

TEST_CASE("a program still running at the time limit is stopped, and what it printed is kept") {
  const auto start = Clock::now();
  const Finished run =
      run_collecting({"sh", "-c", "echo started; sleep 30"}, std::chrono::seconds(1));
  CHECK(Clock::now() - start < std::chrono::seconds(10));
  CHECK(run.stopped);
  CHECK(run.output == "started\n");
  CHECK(run.status == 128 + 9);  // SIGKILL
  const Finished quick = run_collecting({"sh", "-c", "echo done"}, std::chrono::seconds(10));
  CHECK_FALSE(quick.stopped);
  CHECK(quick.status == 0);
}

TEST_CASE("a program that ends is not waited for past its end, and the processes it left end too") {
  // The sleeper keeps the output pipe open: waiting for the pipe to close would wait 30 s.
  const auto start = Clock::now();
  const Finished run = run_collecting({"sh", "-c", "sleep 30 & echo $!"}, std::chrono::seconds(20));
  CHECK(Clock::now() - start < std::chrono::seconds(5));
  CHECK_FALSE(run.stopped);
  CHECK(run.status == 0);
  REQUIRE(!run.output.empty());
  CHECK(process_ends_soon(first_line_as_pid(run.output)));
}

TEST_CASE("at the time limit every process of the program is stopped, not only the first") {
  const Finished run =
      run_collecting({"sh", "-c", "sleep 30 & echo $!; sleep 30"}, std::chrono::seconds(1));
  CHECK(run.stopped);
  REQUIRE(!run.output.empty());
  CHECK(process_ends_soon(first_line_as_pid(run.output)));
}

TEST_CASE("a Ctrl-C while a program runs ends the program's whole group, then this program") {
  const std::string pid_file = (scratch_directory("child_process_test") / "sleeper").string();
  const pid_t course = fork();  // stands for the course command, which a Ctrl-C reaches
  if (course == 0) {
    run_collecting({"sh", "-c", "sleep 30 & echo $! > " + pid_file + "; wait"},
                   std::chrono::seconds(20));
    _exit(0);  // not reached: the SIGINT ends this process after its program
  }
  const auto written = [&] {
    std::ifstream in(pid_file);
    std::string line;
    return std::getline(in, line) && in.eof() == false;  // the whole line, with its break
  };
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < deadline && !written())
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  kill(course, SIGINT);
  int status = 0;
  waitpid(course, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
  std::ifstream in(pid_file);
  pid_t sleeper = 0;
  in >> sleeper;
  REQUIRE(sleeper > 0);
  CHECK(process_ends_soon(sleeper));
}

TEST_CASE("of a flood of output, the start and the end are kept, and the cut is said") {
  // 8 MB of "y" lines, then the last line.
  const Finished run = run_collecting({"sh", "-c", "yes | head -c 8000000; echo the last line"},
                                      std::chrono::seconds(60));
  CHECK(run.status == 0);
  CHECK(run.output.size() < 400 * 1024);
  CHECK(run.output.rfind("y\ny\n", 0) == 0);
  CHECK(run.output.find("MiB of output cut here") != std::string::npos);
  CHECK(run.output.size() >= std::string_view("\nthe last line\n").size());
  CHECK(run.output.substr(run.output.size() - 15) == "\nthe last line\n");
}

TEST_CASE("a memory limit is the program's own, where the system enforces one") {
  if (!address_space_limits_enforced()) {
    MESSAGE("SKIPPED: this host does not enforce address-space limits");
    return;
  }
  if (engine::notebook::kUnderAddressSanitizer) {
    MESSAGE("SKIPPED: a build under AddressSanitizer sets no memory limit");
    return;
  }
  const Finished run = run_collecting({"sh", "-c", "ulimit -v"}, std::chrono::seconds(10),
                                      {.memory_limit = std::uint64_t{256} << 20});
  REQUIRE(run.status == 0);
  CHECK(run.output == "262144\n");  // KiB
  const Finished unlimited = run_collecting({"sh", "-c", "ulimit -v"}, std::chrono::seconds(10));
  CHECK(unlimited.output != run.output);  // ours was never lowered
}

TEST_CASE("what a program writes on its completion channel is kept apart from its output") {
  const std::string variable = engine::notebook::kCompletionChannelVariable;
  const Finished run =
      run_collecting({"sh", "-c", "echo printed; echo \"$" + variable + "\"; echo finished >&3"},
                     std::chrono::seconds(10), {.completion_channel = true});
  CHECK(run.status == 0);
  CHECK(run.output == "printed\n3\n");
  CHECK(run.completion == "finished\n");
}
