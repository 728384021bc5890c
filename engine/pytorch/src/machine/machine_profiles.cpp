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
//   [pt-148219]  pytorch/pytorch#148219: ~20 us host dispatch per MPSGraph op (sqrt 20.7, log
//                19.6, sin 20.0, cos 19.2), ~1.3 us per op with its own Metal kernel (exp 1.4,
//                tanh 1.2, erfinv 1.3), 0.9 us for a tiny op on the cpu (M1 Pro, 2025)
//   [pt-124056]  pytorch/pytorch#124056: a first ResNet-18 forward on an M2 took 13.8 ms, later
//                ones ~4.5 ms; spread over its ~30 distinct (op, shape) graphs, ~0.3 ms each
//   [zen4-box]   measured on a 2-core AMD EPYC (Zen 4) Linux VM: 3.59 GHz sustained, an FMA
//                loop at 230 GFLOP/s on 2 cores, PyTorch eager at ~1.2 us per small add
//   [scenario]   a course scenario, not a measurement: what else is open on the machine
//   [cores]      peak = performance cores x clock x 32 FP32 FLOP per cycle (four 128-bit FMA
//                pipes on Apple's cores, two 256-bit ones on AVX2 x86), from the vendors' core
//                counts and clocks; an estimate of the hardware, not a measurement of PyTorch
//   [clocks]     the performance cores' and GPU's maximum clocks as published for each chip
//                (AnandTech's M1 Pro/Max review: 3228 MHz; GPU clocks from [hmc-tech]); estimates
//                where marked
//   [corsix-amx] corsix/amx fma.md: AMX fma32 in matrix mode on an M1 Max, one thread (one
//                performance cluster's AMX unit): 1475 GFLOPS; two threads: 2957. Other chips:
//                clusters x 1475 GFLOPS x their clock / 3.228 GHz, an estimate
//   [mlxb-cpu]   TristanBilot/mlx-benchmark, benchmarks/detailed_benchmark.md: torch.sum of a
//                64x128x128x128 float32 cpu tensor (537 MB) on that chip; the bandwidth PyTorch's
//                cpu kernels stream at (tests/data/cost_model_cases.toml holds each as a fit case)
//   [fit]        fitted to the cost model's fit cases (tests/data/cost_model_cases.toml)
//   [estimate]   a plausible figure with no published measurement behind it
// The MPS host-overhead constants are M1 Pro measurements, scaled to each chip by its
// performance cores' clock [estimate].

#include <string>

#include "engine/machine.h"

namespace engine {
namespace {

constexpr std::uint64_t kGiB = 1ULL << 30;
constexpr std::uint64_t kMiB = 1ULL << 20;

constexpr double kAppleKernelLaunch = 3e-6;    // [pt-82707]
constexpr double kAppleGraphCompile = 0.3e-3;  // [pt-124056]
constexpr double kEagerCpuOp = 0.9e-6;         // [pt-148219] a 1-element op on the cpu
// [fit] Committing a command buffer and waking the waiting host when Metal reports it
// complete, on top of the GPU's work: what an op followed by synchronize() costs beyond the op.
// Apple's MPS tuning hints warn that waiting for each command buffer adds delays of up to
// 2.5 ms (quoted in tinygrad/tinygrad#1335); wgpu measured 1.2 ms for an empty submission on
// an M2 through its own layers (gfx-rs/wgpu#7712).
constexpr double kAppleSyncLatency = 0.3e-3;

// One Apple-silicon chip: what the cost model needs to know about it.
struct AppleChip {
  const char* name;
  int gpu_cores;
  double gpu_clock;       // GHz [clocks]
  int gpu_family;         // MTLGPUFamilyApple7 (M1), 8 (M2), 9 (M3, M4)
  double bandwidth;       // GB/s [apple]
  int performance_cores;  // [apple]
  int clusters;           // performance-core clusters, one AMX unit each
  double cpu_clock;       // GHz [clocks]
  double cpu_bandwidth;   // GB/s [mlxb-cpu]
};

// Seconds of 537 MB summed on the cpu [mlxb-cpu], as bytes per second.
constexpr double streamed(double milliseconds) {
  return 64.0 * 128 * 128 * 128 * 4 / (milliseconds * 1e-3) / 1e9;
}

constexpr AppleChip kM1{"Apple M1", 8, 1.278, 7, 68.25, 4, 1, 3.2, streamed(9.38)};
constexpr AppleChip kM1Pro{"Apple M1 Pro", 16, 1.296, 7, 200, 8, 2, 3.228, streamed(4.67)};
constexpr AppleChip kM1Max{"Apple M1 Max", 32, 1.296, 7, 400, 8, 2, 3.228, streamed(4.50)};
constexpr AppleChip kM1Ultra{"Apple M1 Ultra", 48, 1.296, 7, 800, 16, 4, 3.228, streamed(2.88)};
constexpr AppleChip kM2{"Apple M2", 10, 1.398, 8, 100, 4, 1, 3.49, streamed(8.27)};
constexpr AppleChip kM2Pro{"Apple M2 Pro", 16, 1.398, 8, 200, 6, 2, 3.49, streamed(4.53)};
constexpr AppleChip kM2Max{"Apple M2 Max", 38, 1.398, 8, 400, 8, 2, 3.69, streamed(5.19)};
constexpr AppleChip kM3{"Apple M3", 10, 1.398, 9, 100, 4, 1, 4.05, streamed(7.92)};
constexpr AppleChip kM3Pro{"Apple M3 Pro", 14, 1.398, 9, 150, 5, 1, 4.05, streamed(4.72)};
constexpr AppleChip kM3Max{"Apple M3 Max", 40, 1.398, 9, 400, 12, 2, 4.05, streamed(4.38)};
constexpr AppleChip kM3Ultra{"Apple M3 Ultra", 60, 1.398, 9, 819, 20, 4, 4.05, streamed(2.25)};
constexpr AppleChip kM4{"Apple M4", 10, 1.47, 9, 120, 4, 1, 4.4, streamed(7.47)};
// [clocks] The M4 Pro's GPU clock is not published: an estimate between the M4's and the M4 Max's.
constexpr AppleChip kM4Pro{"Apple M4 Pro", 20, 1.578, 9, 273, 10, 2, 4.5, streamed(2.28)};
constexpr AppleChip kM4Max{"Apple M4 Max", 40, 1.677, 9, 546, 12, 2, 4.5, streamed(1.94)};

// The GPU, the MPS overheads and the cpu numbers of a Mac with `chip`.
void fit_chip(MachineProfile& m, const AppleChip& chip) {
  m.gpu = GpuSpec{.name = chip.name,
                  .fp32_flops = chip.gpu_cores * 256 * chip.gpu_clock *
                                1e9,  // [hmc-tech] 128 ALUs x 2 per core
                  .memory_bandwidth = chip.bandwidth * 1e9,
                  .cores = chip.gpu_cores,
                  .family = chip.gpu_family};
  const double host_speed =
      3.228 / chip.cpu_clock;  // [estimate] host overheads scale with the clock
  m.kernel_launch_seconds = kAppleKernelLaunch;
  m.host_dispatch_seconds = 20e-6 * host_speed;    // [pt-148219]
  m.metal_dispatch_seconds = 1.3e-6 * host_speed;  // [pt-148219]
  m.graph_compile_seconds = kAppleGraphCompile;
  m.sync_latency_seconds = kAppleSyncLatency;
  m.cpu_fp32_flops = chip.performance_cores * chip.cpu_clock * 1e9 * 32;  // [cores]
  m.cpu_core_hz = chip.cpu_clock * 1e9;                                   // [clocks]
  m.cpu_matrix_flops = chip.clusters * 1475e9 * chip.cpu_clock / 3.228;   // [corsix-amx]
  m.cpu_memory_bandwidth = chip.cpu_bandwidth * 1e9;                      // [mlxb-cpu]
  m.cpu_op_seconds = kEagerCpuOp;
}

// A Mac with `chip` and `memory_gb` of unified memory on macOS 15.6.1: the chips of the cost
// model's validation set, for which published PyTorch timings exist.
MachineProfile apple_silicon(std::string_view name, std::string_view summary, const AppleChip& chip,
                             int memory_gb) {
  MachineProfile m;
  m.name = name;
  m.summary = summary;
  m.os = OperatingSystem::MacOS;
  m.os_version = {15, 6, 1};
  m.cpu_architecture = Architecture::Arm64;
  m.python_architecture = Architecture::Arm64;
  m.torch_built_with_mps = true;
  m.unified_memory = true;
  m.memory_bytes = static_cast<std::uint64_t>(memory_gb) * kGiB;
  m.recommended_working_set_bytes =
      memory_gb <= 32 ? m.memory_bytes * 2 / 3 : m.memory_bytes * 3 / 4;  // [wss]
  m.max_buffer_length = m.memory_bytes / 2;               // [maxbuf] estimate: half the memory
  m.other_apps_bytes = (memory_gb <= 16 ? 3 : 6) * kGiB;  // [scenario] macOS, a browser, an editor
  m.swap_bandwidth = 4e9;                                 // [estimate] the internal SSD's reads
  fit_chip(m, chip);
  return m;
}

MachineProfile m3_max_64gb() {
  MachineProfile m;
  m.name = "m3-max-64gb";
  m.summary = "MacBook Pro, Apple M3 Max (40-core GPU), 64 GB, macOS 15.6.1 (the nanoGPT machine)";
  m.os = OperatingSystem::MacOS;
  m.os_version = {15, 6, 1};  // [seed-003]
  m.cpu_architecture = Architecture::Arm64;
  m.python_architecture = Architecture::Arm64;
  m.torch_built_with_mps = true;  // the macOS arm64 wheels are built with MPS
  fit_chip(m, kM3Max);  // 40-core GPU at 1398 MHz: 14.32 TFLOPS [hmc-tech], 400 GB/s [apple]
  m.unified_memory = true;
  m.memory_bytes = 64 * kGiB;                      // [seed-003]
  m.recommended_working_set_bytes = 49152 * kMiB;  // [wss] 3/4 of 64 GB
  m.max_buffer_length = 32 * kGiB;                 // [maxbuf] estimate: half of 64 GB
  m.other_apps_bytes = 8 * kGiB;                   // [scenario] macOS, a browser, an IDE
  m.swap_bandwidth = 6e9;                          // [estimate] the internal SSD's reads
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
  fit_chip(m, kM1);  // 8-core GPU: 2.6 TFLOPS [hmc-tech], LPDDR4X-4266 at 68.25 GB/s [apple]
  m.unified_memory = true;
  m.memory_bytes = 8 * kGiB;
  m.recommended_working_set_bytes = 8 * kGiB * 2 / 3;  // [wss] 5.33 GiB
  m.max_buffer_length = 4 * kGiB;                      // [maxbuf] 8 GB Macs report 4 GiB
  m.other_apps_bytes = 3 * kGiB;                       // [scenario] macOS and a browser
  m.swap_bandwidth = 2.5e9;                            // [estimate] the internal SSD's reads
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
  m.python_version = {3, 8, 9};   // [scenario] the python3 of Xcode 13's command-line tools
  m.cpu_has_avx2 = true;          // Coffee Lake has AVX2
  m.torch_built_with_mps = true;  // x86_64 macOS builds include MPS (for AMD GPUs)
  // MPS never runs here (the OS is too old), so the GPU's speed is not modelled.
  m.gpu = GpuSpec{.name = "AMD Radeon Pro Vega 20"};
  m.unified_memory = false;  // a discrete GPU with its own 4 GB of video memory
  m.memory_bytes = 16 * kGiB;
  m.recommended_working_set_bytes = 4076 * kMiB;  // [wss] 3.98 GiB
  m.other_apps_bytes = 4 * kGiB;                  // [scenario]
  m.cpu_fp32_flops = 6 * 2.6e9 * 32;              // [cores] 6 cores at 2.6 GHz (Core i7-8850H)
  m.cpu_core_hz = 2.6e9;
  m.cpu_memory_bandwidth = 30e9;  // [estimate] dual-channel DDR4-2400
  m.cpu_op_seconds = kEagerCpuOp;
  return m;
}

// The misleading case of Note [macOS minimum of 2.9] (availability.cpp): a Mac that runs MPS
// well, on a macOS that PyTorch 2.9 no longer accepts, told it needs a version it already has.
MachineProfile m2_max_macos13() {
  MachineProfile m = apple_silicon(
      "m2-max-macos13.7",
      "MacBook Pro, Apple M2 Max (38-core GPU), 32 GB, macOS 13.7.4 (too old for 2.9's MPS)",
      kM2Max, 32);
  m.os_version = {13, 7, 4};  // pytorch/pytorch#164943's machine: an M2 Max on 13.7.4
  return m;
}

MachineProfile linux_x86_64() {
  MachineProfile m;
  m.name = "linux-x86_64";
  m.summary = "Linux x86_64 box, 2-core AMD EPYC, 24 GB, PyTorch's Linux wheel (no MPS)";
  m.os = OperatingSystem::Linux;
  m.cpu_architecture = Architecture::X86_64;
  m.python_architecture = Architecture::X86_64;
  m.python_version = {3, 11, 2};   // Debian 12's python3
  m.cpu_has_avx2 = true;           // [zen4-box]
  m.torch_built_with_mps = false;  // Linux wheels are built without MPS
  m.unified_memory = false;        // no GPU at all
  m.memory_bytes = 24 * kGiB;      // [zen4-box]
  m.other_apps_bytes = 1 * kGiB;   // [scenario]
  m.cpu_fp32_flops = 229.8e9;      // [zen4-box] 2 cores x 3.59 GHz x 32
  m.cpu_core_hz = 3.59e9;          // [zen4-box]
  m.cpu_memory_bandwidth = 40e9;   // [estimate]
  m.cpu_op_seconds = 1.2e-6;       // [zen4-box]
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
  // [scenario] python.org's 3.8.10, the last 3.8 with a macOS installer, which was x86_64 only.
  m.python_version = {3, 8, 10};
  m.cpu_has_avx2 = false;  // Rosetta 2 on macOS 14 does not translate AVX instructions
  // PyTorch stopped publishing x86_64 macOS wheels after 2.2 (pytorch/pytorch#114602); this
  // profile models an x86_64 build compiled without MPS, as many such installs were.
  m.torch_built_with_mps = false;
  m.gpu = GpuSpec{.name = "Apple M2",
                  .fp32_flops = 3.6e12,       // [hmc-tech] 10-core M2
                  .memory_bandwidth = 100e9,  // [apple]
                  .cores = 10,
                  .family = 8};
  m.unified_memory = true;
  m.memory_bytes = 16 * kGiB;
  m.recommended_working_set_bytes = 16 * kGiB * 2 / 3;  // [wss] 10922.67 MiB
  m.other_apps_bytes = 4 * kGiB;                        // [scenario]
  m.swap_bandwidth = 3e9;                               // [estimate] the internal SSD's reads
  m.kernel_launch_seconds = kAppleKernelLaunch;
  m.host_dispatch_seconds = 20e-6;    // [pt-148219]
  m.metal_dispatch_seconds = 1.3e-6;  // [pt-148219]
  m.graph_compile_seconds = kAppleGraphCompile;
  m.sync_latency_seconds = kAppleSyncLatency;
  m.cpu_fp32_flops = 4 * 3.5e9 * 16;  // [cores] 4 cores at 3.5 GHz, SSE only (no AVX under Rosetta)
  m.cpu_core_hz = 3.5e9;
  m.cpu_memory_bandwidth = 60e9;       // [estimate]
  m.cpu_op_seconds = 2 * kEagerCpuOp;  // [estimate] translated code runs the overhead slower
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
  // The chips of the cost model's validation set (tests/data/cost_model_cases.toml).
  static const MachineProfile m1_pro = apple_silicon(
      "m1-pro-16gb", "MacBook Pro, Apple M1 Pro (16-core GPU), 16 GB, macOS 15.6.1", kM1Pro, 16);
  static const MachineProfile m1_max = apple_silicon(
      "m1-max-64gb", "MacBook Pro, Apple M1 Max (32-core GPU), 64 GB, macOS 15.6.1", kM1Max, 64);
  static const MachineProfile m1_ultra =
      apple_silicon("m1-ultra-64gb",
                    "Mac Studio, Apple M1 Ultra (48-core GPU), 64 GB, macOS 15.6.1", kM1Ultra, 64);
  static const MachineProfile m2 =
      apple_silicon("m2-16gb", "MacBook Air, Apple M2 (10-core GPU), 16 GB, macOS 15.6.1", kM2, 16);
  static const MachineProfile m2_pro = apple_silicon(
      "m2-pro-16gb", "Mac mini, Apple M2 Pro (16-core GPU), 16 GB, macOS 15.6.1", kM2Pro, 16);
  static const MachineProfile m2_max = apple_silicon(
      "m2-max-32gb", "MacBook Pro, Apple M2 Max (38-core GPU), 32 GB, macOS 15.6.1", kM2Max, 32);
  static const MachineProfile m3_base =
      apple_silicon("m3-16gb", "MacBook Pro, Apple M3 (10-core GPU), 16 GB, macOS 15.6.1", kM3, 16);
  static const MachineProfile m3_pro = apple_silicon(
      "m3-pro-18gb", "MacBook Pro, Apple M3 Pro (14-core GPU), 18 GB, macOS 15.6.1", kM3Pro, 18);
  static const MachineProfile m3_ultra =
      apple_silicon("m3-ultra-96gb",
                    "Mac Studio, Apple M3 Ultra (60-core GPU), 96 GB, macOS 15.6.1", kM3Ultra, 96);
  static const MachineProfile m4 =
      apple_silicon("m4-16gb", "MacBook Air, Apple M4 (10-core GPU), 16 GB, macOS 15.6.1", kM4, 16);
  static const MachineProfile m4_pro = apple_silicon(
      "m4-pro-24gb", "Mac mini, Apple M4 Pro (20-core GPU), 24 GB, macOS 15.6.1", kM4Pro, 24);
  static const MachineProfile m4_max = apple_silicon(
      "m4-max-128gb", "MacBook Pro, Apple M4 Max (40-core GPU), 128 GB, macOS 15.6.1", kM4Max, 128);
  static const MachineProfile host = make_host_machine();
  static const MachineProfile* const all[] = {
      &m3,     &m1,     &intel,   &ventura, &linux_box, &rosetta, &m1_pro, &m1_max, &m1_ultra, &m2,
      &m2_pro, &m2_max, &m3_base, &m3_pro,  &m3_ultra,  &m4,      &m4_pro, &m4_max, &host};
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
