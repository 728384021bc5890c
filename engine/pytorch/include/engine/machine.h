#pragma once
// The simulated computers. A profile holds what decides how PyTorch's MPS backend behaves on a
// machine: the operating system, the CPU and the architecture the Python interpreter runs as,
// whether the installed PyTorch build has MPS, the Metal GPU, unified memory and the numbers
// the cost model needs. Every number carries its source in machine_profiles.cpp.

#include <algorithm>
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace engine {

enum class OperatingSystem { MacOS, Linux };
enum class Architecture { Arm64, X86_64 };

std::string_view architecture_name(Architecture arch) noexcept;  // "arm64", "x86_64"

struct OsVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;
  auto operator<=>(const OsVersion&) const = default;
  std::string str() const;  // "15.6.1", "12.0"
};

struct GpuSpec {
  std::string_view name;
  bool low_power = false;            // integrated Intel GPUs: MPS skips them
  bool supports_mac2_family = true;  // MTLGPUFamilyMac2, i.e. Metal 2; MPS skips GPUs without it
  double fp32_flops = 0;             // peak FP32 operations per second
  double memory_bandwidth = 0;       // bytes per second
  int cores = 8;                     // GPU cores: how much work it takes to fill the GPU
  int family = 7;  // Apple GPU family (MTLGPUFamilyApple7 = M1, 8 = M2, 9 = M3 and M4)
};

struct MachineProfile {
  std::string_view name;     // what --machine takes
  std::string_view summary;  // one line for --list-machines
  OperatingSystem os = OperatingSystem::MacOS;
  OsVersion os_version;
  Architecture cpu_architecture = Architecture::Arm64;     // the hardware
  Architecture python_architecture = Architecture::Arm64;  // what the interpreter runs as
  // The interpreter's version, platform.python_version(): a current one (an estimate) unless the
  // profile names the Python its scenario runs (machine_profiles.cpp).
  OsVersion python_version = {3, 12, 4};
  // Where `xcode-select -p` says the developer tools are: Xcode's command-line tools, which a
  // Mac has unless its scenario says otherwise; "" where none are installed.
  std::string_view developer_directory = "/Library/Developer/CommandLineTools";
  bool cpu_has_avx2 = false;         // selects PyTorch's AVX2 CPU kernels (and randn's sampler)
  bool torch_built_with_mps = true;  // torch.backends.mps.is_built() of the installed build
  std::optional<GpuSpec> gpu;
  bool unified_memory = true;
  std::uint64_t memory_bytes = 0;
  std::uint64_t recommended_working_set_bytes = 0;  // MTLDevice.recommendedMaxWorkingSetSize
  std::uint64_t max_buffer_length = 0;  // MTLDevice.maxBufferLength; 0 where MPS never allocates
  std::uint64_t other_apps_bytes = 0;   // memory the rest of the machine holds
  double swap_bandwidth = 0;  // bytes per second when paged-out memory must come back from disk
  double kernel_launch_seconds = 0;  // fixed device-side cost of one MPS kernel
  double host_dispatch_seconds =
      0;  // host time to dispatch and encode an MPS op run as an MPSGraph
  double metal_dispatch_seconds = 0;  // the same for an op with its own Metal kernel
  double graph_compile_seconds = 0;   // host time to build an MPS op's graph for new shapes
  // A blocking sync point (synchronize(), item(), a copy to or from the cpu, an event wait)
  // commits the command buffer and sleeps until Metal reports it complete: this much longer
  // than the GPU's own work.
  double sync_latency_seconds = 0;
  int cpu_cores = 1;                // os.cpu_count(): every core, performance and efficiency
  double cpu_fp32_flops = 0;        // peak FP32 operations per second of the CPU cores PyTorch uses
  double cpu_core_hz = 0;           // one of those cores' clock (0: cpu_fp32_flops / 32, one core)
  double cpu_matrix_flops = 0;      // Accelerate's FP32 matrix peak on the AMX units (0: no AMX)
  double cpu_memory_bandwidth = 0;  // bytes per second PyTorch's cpu kernels stream
  double cpu_op_seconds = 0;        // host overhead of one eager PyTorch op on the cpu

  // The cores that do a process's work (the efficiency cores do none, an emulator
  // simplification): as many as the cpu's peak holds cores of cpu_core_hz, at least one.
  double performance_cores() const noexcept {
    const double core_hz = cpu_core_hz > 0 ? cpu_core_hz : cpu_fp32_flops / 32;
    return core_hz > 0 ? std::max(1.0, cpu_fp32_flops / 32 / core_hz) : 1.0;
  }

  // An x86_64 interpreter on Apple silicon runs translated by Rosetta 2.
  bool runs_under_rosetta() const noexcept {
    return os == OperatingSystem::MacOS && cpu_architecture == Architecture::Arm64 &&
           python_architecture == Architecture::X86_64;
  }
  // "macOS 15.6.1", "Linux"
  std::string os_description() const;
};

// The course's reference machine: the M3 Max MacBook Pro of the nanoGPT measurements.
const MachineProfile& default_machine();
// The course's machines, default first: the six the lessons document, the Macs of the cost
// model's published timings, and "host", this computer.
std::span<const MachineProfile* const> machines();
// Every Apple-silicon Mac configuration sold, M1 to M4 with their Pro, Max and Ultra, binned
// GPUs and every memory size: "m3-max-14cpu-30gpu-36gb" (the chip, its CPU and GPU cores, the
// memory), on macOS 15.6.1.
std::span<const MachineProfile* const> apple_silicon_configurations();
// A machine of either list by its name, or nullptr.
const MachineProfile* find_machine(std::string_view name);
// "m3-max-64gb, m1-8gb, ..." for messages that list the choices: the course's machines.
std::string machine_names();

}  // namespace engine
