// The named machine profiles. Sources, by the tag in each comment:
//   [seed-003]   "State of PyTorch Metal support" (2025-09-02): nanoGPT shakespeare-char on a
//                MacBook Pro M3 Max, 64 GB, macOS Sequoia 15.6.1: ~221 ms/iter on mps, ~1986 on cpu
//   [apple]      Apple's technical specifications (memory bandwidth, GPU cores)
//   [hmc-tech]   hmc-tech.com's GPU tables: FP32 peak from cores x ALUs x clock (third-party)
//   [wss]        MTLDevice.recommendedMaxWorkingSetSize as logged by llama.cpp and by PyTorch's
//                out-of-memory reports: 2/3 of RAM up to 32 GB (8 GB Macs report a cap of
//                9.07 GB = 1.7 x 5.33 GiB, lllyasviel/Fooocus#1271), 49152 MiB on 64 GB
//                (ggml-org/llama.cpp#1870), about the VRAM on discrete GPUs (4 GB Vega 20:
//                "max allowed: 6.77 GB", run-llama/llama_index#8743)
//   [maxbuf]     MTLDevice.maxBufferLength, the largest single Metal buffer: half of the RAM on
//                the Macs that report it (4294967296 bytes on an 8 GB Mac mini, ggml-org/
//                llama.cpp#1706; 17179869184 on a 32 GB M1, riccardomusmeci/mlx-llm#22, as MLX's
//                "maximum allowed buffer size"). Newer chips and macOS releases report up to
//                0.59 of the RAM (30150672384 bytes on a 48 GB M4 Pro, in MLX errors), so half
//                of the RAM is an estimate for the machines below; no lesson depends on where
//                between the two the limit lies.
//   [pt-82707]   pytorch/pytorch#82707: ~3 us of GPU time per trivial kernel (M1 Max)
//   [pt-148219]  pytorch/pytorch#148219: ~20 us host dispatch per MPSGraph op, 0.9 us for a
//                tiny op on the cpu (M1 Pro, 2025)
//   [pt-124056]  pytorch/pytorch#124056: a first ResNet-18 forward on an M2 took 13.8 ms, later
//                ones ~4.5 ms; spread over its ~30 distinct (op, shape) graphs, ~0.3 ms each
//   [zen4-box]   measured on a 2-core AMD EPYC (Zen 4) Linux VM: 3.59 GHz sustained, an FMA
//                loop at 230 GFLOP/s on 2 cores, PyTorch eager at ~1.2 us per small add
//   [scenario]   a course scenario, not a measurement: what else is open on the machine
//   [cores]      peak = performance cores x clock x 32 FP32 FLOP per cycle (four 128-bit FMA
//                pipes on Apple's cores, two 256-bit ones on AVX2 x86), from the vendors' core
//                counts and clocks; an estimate of the hardware, not a measurement of PyTorch
//   [estimate]   a plausible figure with no published measurement behind it; the cost model's
//                efficiency factors, fitted to [seed-003], absorb its error
// The MPS overhead constants are M1- and M2-era measurements reused for every Apple GPU.

#include <string>

#include "engine/machine.h"

namespace engine {
namespace {

constexpr std::uint64_t kGiB = 1ULL << 30;
constexpr std::uint64_t kMiB = 1ULL << 20;

constexpr double kAppleKernelLaunch = 3e-6;     // [pt-82707]
constexpr double kAppleHostDispatch = 20e-6;    // [pt-148219]
constexpr double kAppleGraphCompile = 0.3e-3;   // [pt-124056]
constexpr double kEagerCpuOp = 0.9e-6;          // [pt-148219] a 1-element op on the cpu

MachineProfile m3_max_64gb() {
  MachineProfile m;
  m.name = "m3-max-64gb";
  m.summary = "MacBook Pro, Apple M3 Max (40-core GPU), 64 GB, macOS 15.6.1 (the nanoGPT machine)";
  m.os = OperatingSystem::MacOS;
  m.os_version = {15, 6, 1};  // [seed-003]
  m.cpu_architecture = Architecture::Arm64;
  m.python_architecture = Architecture::Arm64;
  m.torch_built_with_mps = true;  // the macOS arm64 wheels are built with MPS
  m.gpu = GpuSpec{.name = "Apple M3 Max",
                  .fp32_flops = 14.32e12,       // [hmc-tech] 40-core GPU at 1398 MHz
                  .memory_bandwidth = 400e9};   // [apple] 400 GB/s
  m.unified_memory = true;
  m.memory_bytes = 64 * kGiB;                     // [seed-003]
  m.recommended_working_set_bytes = 49152 * kMiB;  // [wss] 3/4 of 64 GB
  m.max_buffer_length = 32 * kGiB;                 // [maxbuf] estimate: half of 64 GB
  m.other_apps_bytes = 8 * kGiB;                   // [scenario] macOS, a browser, an IDE
  m.swap_bandwidth = 6e9;                          // [estimate] the internal SSD's reads
  m.kernel_launch_seconds = kAppleKernelLaunch;
  m.host_dispatch_seconds = kAppleHostDispatch;
  m.graph_compile_seconds = kAppleGraphCompile;
  m.cpu_fp32_flops = 12 * 4.05e9 * 32;  // [cores] 12 performance cores at 4.05 GHz
  m.cpu_memory_bandwidth = 200e9;       // [estimate] half of the 400 GB/s the chip offers
  m.cpu_op_seconds = kEagerCpuOp;
  return m;
}

MachineProfile m1_8gb() {
  MachineProfile m;
  m.name = "m1-8gb";
  m.summary = "MacBook Air, Apple M1 (8-core GPU), 8 GB, macOS 15.5";
  m.os = OperatingSystem::MacOS;
  m.os_version = {15, 5, 0};
  m.cpu_architecture = Architecture::Arm64;
  m.python_architecture = Architecture::Arm64;
  m.torch_built_with_mps = true;
  m.gpu = GpuSpec{.name = "Apple M1",
                  .fp32_flops = 2.6e12,          // [hmc-tech] 8-core M1
                  .memory_bandwidth = 68.25e9};  // [apple] LPDDR4X-4266
  m.unified_memory = true;
  m.memory_bytes = 8 * kGiB;
  m.recommended_working_set_bytes = 8 * kGiB * 2 / 3;  // [wss] 5.33 GiB
  m.max_buffer_length = 4 * kGiB;                       // [maxbuf] 8 GB Macs report 4 GiB
  m.other_apps_bytes = 3 * kGiB;  // [scenario] macOS and a browser
  m.swap_bandwidth = 2.5e9;       // [estimate] the internal SSD's reads
  m.kernel_launch_seconds = kAppleKernelLaunch;
  m.host_dispatch_seconds = kAppleHostDispatch;
  m.graph_compile_seconds = kAppleGraphCompile;
  m.cpu_fp32_flops = 4 * 3.2e9 * 32;  // [cores] 4 performance cores at 3.2 GHz
  m.cpu_memory_bandwidth = 60e9;      // [estimate] most of the chip's 68 GB/s
  m.cpu_op_seconds = kEagerCpuOp;
  return m;
}

MachineProfile intel_mac_macos12() {
  MachineProfile m;
  m.name = "intel-mac-macos12.0";
  m.summary = "MacBook Pro 15-inch (2018), Intel, Radeon Pro Vega 20 4 GB, 16 GB, macOS 12.0";
  m.os = OperatingSystem::MacOS;
  m.os_version = {12, 0, 0};  // below the 14.0 that PyTorch 2.9 requires for MPS
  m.cpu_architecture = Architecture::X86_64;
  m.python_architecture = Architecture::X86_64;
  m.cpu_has_avx2 = true;           // Coffee Lake has AVX2
  m.torch_built_with_mps = true;   // x86_64 macOS builds include MPS (for AMD GPUs)
  // MPS never runs here (the OS is too old), so the GPU's speed is not modelled.
  m.gpu = GpuSpec{.name = "AMD Radeon Pro Vega 20"};
  m.unified_memory = false;  // a discrete GPU with its own 4 GB of video memory
  m.memory_bytes = 16 * kGiB;
  m.recommended_working_set_bytes = 4076 * kMiB;  // [wss] 3.98 GiB
  m.other_apps_bytes = 4 * kGiB;  // [scenario]
  m.cpu_fp32_flops = 6 * 2.6e9 * 32;  // [cores] 6 cores at 2.6 GHz (Core i7-8850H)
  m.cpu_memory_bandwidth = 30e9;      // [estimate] dual-channel DDR4-2400
  m.cpu_op_seconds = kEagerCpuOp;
  return m;
}

// The misleading case of Note [macOS minimum of 2.9] (availability.cpp): a Mac that runs MPS
// well, on a macOS that PyTorch 2.9 no longer accepts, told it needs a version it already has.
MachineProfile m2_max_macos13() {
  MachineProfile m;
  m.name = "m2-max-macos13.7";
  m.summary = "MacBook Pro, Apple M2 Max (38-core GPU), 32 GB, macOS 13.7.4 (too old for 2.9's MPS)";
  m.os = OperatingSystem::MacOS;
  m.os_version = {13, 7, 4};  // pytorch/pytorch#164943's machine: an M2 Max on 13.7.4
  m.cpu_architecture = Architecture::Arm64;
  m.python_architecture = Architecture::Arm64;
  m.torch_built_with_mps = true;
  m.gpu = GpuSpec{.name = "Apple M2 Max",
                  .fp32_flops = 13.6e12,        // [hmc-tech] 38-core GPU at 1398 MHz
                  .memory_bandwidth = 400e9};   // [apple] 400 GB/s
  m.unified_memory = true;
  m.memory_bytes = 32 * kGiB;
  m.recommended_working_set_bytes = 32 * kGiB * 2 / 3;  // [wss] 21.33 GiB
  m.max_buffer_length = 16 * kGiB;                      // [maxbuf] half of 32 GB
  m.other_apps_bytes = 6 * kGiB;  // [scenario] macOS, a browser, an IDE
  m.swap_bandwidth = 6e9;         // [estimate] the internal SSD's reads
  m.kernel_launch_seconds = kAppleKernelLaunch;
  m.host_dispatch_seconds = kAppleHostDispatch;
  m.graph_compile_seconds = kAppleGraphCompile;
  m.cpu_fp32_flops = 8 * 3.49e9 * 32;  // [cores] 8 performance cores at 3.49 GHz
  m.cpu_memory_bandwidth = 200e9;      // [estimate] half of the 400 GB/s the chip offers
  m.cpu_op_seconds = kEagerCpuOp;
  return m;
}

MachineProfile linux_x86_64() {
  MachineProfile m;
  m.name = "linux-x86_64";
  m.summary = "Linux x86_64 box, 2-core AMD EPYC, 24 GB, PyTorch's Linux wheel (no MPS)";
  m.os = OperatingSystem::Linux;
  m.cpu_architecture = Architecture::X86_64;
  m.python_architecture = Architecture::X86_64;
  m.cpu_has_avx2 = true;            // [zen4-box]
  m.torch_built_with_mps = false;   // Linux wheels are built without MPS
  m.unified_memory = false;         // no GPU at all
  m.memory_bytes = 24 * kGiB;       // [zen4-box]
  m.other_apps_bytes = 1 * kGiB;    // [scenario]
  m.cpu_fp32_flops = 229.8e9;       // [zen4-box] 2 cores x 3.59 GHz x 32
  m.cpu_memory_bandwidth = 40e9;    // [estimate]
  m.cpu_op_seconds = 1.2e-6;        // [zen4-box]
  return m;
}

MachineProfile rosetta_x86_64() {
  MachineProfile m;
  m.name = "rosetta-x86_64";
  m.summary = "MacBook Air, Apple M2, 16 GB, macOS 14.6, x86_64 Python under Rosetta 2";
  m.os = OperatingSystem::MacOS;
  m.os_version = {14, 6, 0};
  m.cpu_architecture = Architecture::Arm64;
  m.python_architecture = Architecture::X86_64;  // an x86_64 interpreter, translated
  m.cpu_has_avx2 = false;  // Rosetta 2 on macOS 14 does not translate AVX instructions
  // PyTorch stopped publishing x86_64 macOS wheels after 2.2 (pytorch/pytorch#114602); this
  // profile models an x86_64 build compiled without MPS, as many such installs were.
  m.torch_built_with_mps = false;
  m.gpu = GpuSpec{.name = "Apple M2",
                  .fp32_flops = 3.6e12,          // [hmc-tech] 10-core M2
                  .memory_bandwidth = 100e9};    // [apple]
  m.unified_memory = true;
  m.memory_bytes = 16 * kGiB;
  m.recommended_working_set_bytes = 16 * kGiB * 2 / 3;  // [wss] 10922.67 MiB
  m.other_apps_bytes = 4 * kGiB;  // [scenario]
  m.swap_bandwidth = 3e9;         // [estimate] the internal SSD's reads
  m.kernel_launch_seconds = kAppleKernelLaunch;
  m.host_dispatch_seconds = kAppleHostDispatch;
  m.graph_compile_seconds = kAppleGraphCompile;
  m.cpu_fp32_flops = 4 * 3.5e9 * 16;  // [cores] 4 cores at 3.5 GHz, SSE only (no AVX under Rosetta)
  m.cpu_memory_bandwidth = 60e9;      // [estimate]
  m.cpu_op_seconds = 2 * kEagerCpuOp; // [estimate] translated code runs the overhead slower
  return m;
}

}  // namespace

MachineProfile make_host_machine();  // host_machine.cpp

std::span<const MachineProfile* const> machines() {
  static const MachineProfile m3 = m3_max_64gb();
  static const MachineProfile m1 = m1_8gb();
  static const MachineProfile intel = intel_mac_macos12();
  static const MachineProfile ventura = m2_max_macos13();
  static const MachineProfile linux_box = linux_x86_64();
  static const MachineProfile rosetta = rosetta_x86_64();
  static const MachineProfile host = make_host_machine();
  static const MachineProfile* const all[] = {&m3, &m1, &intel, &ventura, &linux_box, &rosetta, &host};
  return all;
}

const MachineProfile& default_machine() { return *machines().front(); }

const MachineProfile* find_machine(std::string_view name) {
  for (const MachineProfile* m : machines()) {
    if (m->name == name) return m;
  }
  return nullptr;
}

std::string machine_names() {
  std::string names;
  for (const MachineProfile* m : machines()) {
    if (!names.empty()) names += ", ";
    names += m->name;
  }
  return names;
}

std::string_view architecture_name(Architecture arch) noexcept {
  return arch == Architecture::Arm64 ? "arm64" : "x86_64";
}

std::string OsVersion::str() const {
  std::string text = std::to_string(major) + "." + std::to_string(minor);
  if (patch != 0) text += "." + std::to_string(patch);
  return text;
}

std::string MachineProfile::os_description() const {
  if (os == OperatingSystem::Linux) return "Linux";
  return "macOS " + os_version.str();
}

}  // namespace engine
