// Runs a command and reports the peak resident memory it used, failing above a limit: the
// course promises that no lesson or test needs more than 1 GiB of this computer's memory, even
// when a lesson allocates tens of GB on a simulated Mac (shape-only tensors).
//   peak_rss LIMIT_MIB COMMAND [ARGS...]

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: peak_rss LIMIT_MIB COMMAND [ARGS...]\n");
    return 2;
  }
  const double limit_mib = std::strtod(argv[1], nullptr);
  const pid_t child = fork();
  if (child == 0) {
    execv(argv[2], argv + 2);
    std::perror(argv[2]);
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (child < 0 || wait4(child, &status, 0, &usage) != child) {
    std::perror("peak_rss");
    return 2;
  }
#if defined(__APPLE__)
  const double peak_mib = static_cast<double>(usage.ru_maxrss) / (1024.0 * 1024.0);  // bytes
#else
  const double peak_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB
#endif
  std::printf("%s: peak resident memory %.1f MiB (limit %.0f MiB)\n", argv[2], peak_mib, limit_mib);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "peak_rss: the command failed\n");
    return 1;
  }
  return peak_mib <= limit_mib ? 0 : 1;
}
