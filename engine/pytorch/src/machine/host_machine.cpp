// The "host" profile: this computer, read from the operating system when first asked. On a
// Mac it models the native build of PyTorch there; on anything else, PyTorch's wheel for that
// platform, which has no MPS. The Apple-GPU speed of an unknown Mac is not measured: it takes
// the smallest Apple GPU's numbers (an 8-core M1).

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>

#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#include "engine/machine.h"

namespace engine {
namespace {

std::uint64_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) * page_size : 0;
}

// Memory the rest of the machine holds right now: MemTotal - MemAvailable on Linux.
std::uint64_t memory_in_use_by_others() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t value_kb = 0, total_kb = 0, available_kb = 0;
  std::string unit;
  while (meminfo >> key >> value_kb >> unit) {
    if (key == "MemTotal:") total_kb = value_kb;
    if (key == "MemAvailable:") available_kb = value_kb;
  }
  return total_kb > available_kb ? (total_kb - available_kb) * 1024 : 0;
}

bool cpu_has_avx2() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

#if defined(__APPLE__)
OsVersion macos_version() {
  char text[32] = {};
  std::size_t size = sizeof(text) - 1;
  OsVersion v;
  if (sysctlbyname("kern.osproductversion", text, &size, nullptr, 0) == 0) {
    std::sscanf(text, "%d.%d.%d", &v.major, &v.minor, &v.patch);
  }
  return v;
}

bool translated_by_rosetta() {
  int translated = 0;
  std::size_t size = sizeof(translated);
  return sysctlbyname("sysctl.proc_translated", &translated, &size, nullptr, 0) == 0 &&
         translated == 1;
}

// What `xcode-select -p` prints on most Macs, read without running it: the command-line tools'
// folder, else Xcode's (the command also honours DEVELOPER_DIR and `xcode-select --switch`,
// which this does not read); "" where neither is installed.
std::string_view developer_directory() {
  static const std::string found = [] {
    for (const char* folder :
         {"/Library/Developer/CommandLineTools", "/Applications/Xcode.app/Contents/Developer"}) {
      if (access(folder, F_OK) == 0) return std::string(folder);
    }
    return std::string();
  }();
  return found;
}
#endif

}  // namespace

MachineProfile make_host_machine() {
  MachineProfile m;
  m.name = "host";
  utsname uts{};
  uname(&uts);
  const bool arm =
      std::strcmp(uts.machine, "arm64") == 0 || std::strcmp(uts.machine, "aarch64") == 0;
  m.python_architecture = arm ? Architecture::Arm64 : Architecture::X86_64;
  m.cpu_architecture = m.python_architecture;
  m.cpu_has_avx2 = cpu_has_avx2();
  m.memory_bytes = physical_memory();
  m.cpu_cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  // Not measured, to keep outputs deterministic: one core's worth of a modern CPU.
  m.cpu_fp32_flops = 3e9 * (m.cpu_has_avx2 || arm ? 32 : 16);
  m.cpu_memory_bandwidth = 20e9;
  m.cpu_op_seconds = 1e-6;
#if defined(__APPLE__)
  m.os = OperatingSystem::MacOS;
  m.os_version = macos_version();
  if (translated_by_rosetta()) m.cpu_architecture = Architecture::Arm64;
  m.torch_built_with_mps = true;
  m.unified_memory = m.cpu_architecture == Architecture::Arm64;
  m.gpu = GpuSpec{.name = "this Mac's GPU", .fp32_flops = 2.6e12, .memory_bandwidth = 68.25e9};
  const std::uint64_t gib32 = 32ULL << 30;
  m.recommended_working_set_bytes =
      m.memory_bytes <= gib32 ? m.memory_bytes * 2 / 3 : m.memory_bytes * 3 / 4;
  m.max_buffer_length = m.memory_bytes / 2;  // [maxbuf] of machine_profiles.cpp
  m.kernel_launch_seconds = 3e-6;
  m.host_dispatch_seconds = 20e-6;
  m.graph_compile_seconds = 0.3e-3;
  m.swap_bandwidth = 2.5e9;
  m.summary = "this computer (macOS, as read from the system)";
  m.developer_directory = developer_directory();
#else
  m.os = OperatingSystem::Linux;
  m.torch_built_with_mps = false;
  m.unified_memory = false;
  m.other_apps_bytes = memory_in_use_by_others();
  m.summary = "this computer (as read from the system; PyTorch's wheel here has no MPS)";
#endif
  return m;
}

}  // namespace engine
