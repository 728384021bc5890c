// Apple's chips and every Mac configuration sold with them (apple_silicon.h). Sources, by the tag
// in each comment:
//   [apple]      Apple's technical specifications of the Macs each chip shipped in, for its CPU
//                cores (performance and efficiency), GPU cores, memory bandwidth and the memory
//                sizes offered: MacBook Air (M1, 2020) and iMac (24-inch, M1, 2021); MacBook Pro
//                (14-inch, 2021); Mac Studio (2022); MacBook Air (M2, 2022); MacBook Pro
//                (14-inch, 2023); Mac Studio (2023); MacBook Air (13-inch, M3, 2024); MacBook Pro
//                (14-inch, Nov 2023); Mac Studio (2025); MacBook Air (13-inch, M4, 2025) and iMac
//                (24-inch, 2024); MacBook Pro (14-inch, M4 Pro or M4 Max, 2024) and Mac mini
//                (2024), each "Tech Specs" on apple.com
//   [hmc-tech]   hmc-tech.com's GPU tables: FP32 peak from cores x ALUs x clock (third-party)
//   [pt-82707]   pytorch/pytorch#82707: ~3 us of GPU time per trivial kernel (M1 Max)
//   [pt-148219]  pytorch/pytorch#148219: ~20 us host dispatch per MPSGraph op (sqrt 20.7, log
//                19.6, sin 20.0, cos 19.2), ~1.3 us per op with its own Metal kernel (exp 1.4,
//                tanh 1.2, erfinv 1.3), 0.9 us for a tiny op on the cpu (M1 Pro, 2025)
//   [pt-124056]  pytorch/pytorch#124056: a first ResNet-18 forward on an M2 took 13.8 ms, later
//                ones ~4.5 ms; spread over its ~30 distinct (op, shape) graphs, ~0.3 ms each
//   [wss]        MTLDevice.recommendedMaxWorkingSetSize: 2/3 of RAM up to 32 GB, 3/4 above
//                (machine_profiles.cpp has the reports)
//   [maxbuf]     MTLDevice.maxBufferLength: half of the RAM, an estimate (machine_profiles.cpp)
//   [cores]      peak = performance cores x clock x 32 FP32 FLOP per cycle (four 128-bit FMA
//                pipes), from Apple's core counts and the clocks; an estimate of the hardware
//   [clocks]     the performance cores' and GPU's maximum clocks as published for each chip
//                (AnandTech's M1 Pro/Max review: 3228 MHz; GPU clocks from [hmc-tech]); estimates
//                where marked
//   [corsix-amx] corsix/amx fma.md: AMX fma32 in matrix mode on an M1 Max, one thread (one
//                performance cluster's AMX unit): 1475 GFLOPS. Other chips: clusters x 1475
//                GFLOPS x their clock / 3.228 GHz, an estimate
//   [mlxb-cpu]   TristanBilot/mlx-benchmark, benchmarks/detailed_benchmark.md: torch.sum of a
//                64x128x128x128 float32 cpu tensor (537 MB) on that chip; the bandwidth PyTorch's
//                cpu kernels stream at (tests/data/cost_model_cases.toml holds each as a fit case).
//                A chip's binned variants are taken to stream as its measured one [estimate]
//   [scenario]   a course scenario, not a measurement: what else is open on the machine
//   [estimate]   a plausible figure with no published measurement behind it
// The MPS host-overhead constants are M1 Pro measurements, scaled to each chip by its
// performance cores' clock [estimate].

#include "machine/apple_silicon.h"

#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace engine::detail {
namespace {

constexpr std::uint64_t kBytesPerGiB = 1ULL << 30;

// Seconds of 537 MB summed on the cpu [mlxb-cpu], as bytes per second.
constexpr double streamed(double milliseconds) {
  return 64.0 * 128 * 128 * 128 * 4 / (milliseconds * 1e-3) / 1e9;
}

constexpr AppleChip kM1{"Apple M1", "m1", 1.278, 7, 3.2, streamed(9.38)};
constexpr AppleChip kM1Pro{"Apple M1 Pro", "m1-pro", 1.296, 7, 3.228, streamed(4.67)};
constexpr AppleChip kM1Max{"Apple M1 Max", "m1-max", 1.296, 7, 3.228, streamed(4.50)};
constexpr AppleChip kM1Ultra{"Apple M1 Ultra", "m1-ultra", 1.296, 7, 3.228, streamed(2.88)};
constexpr AppleChip kM2{"Apple M2", "m2", 1.398, 8, 3.49, streamed(8.27)};
constexpr AppleChip kM2Pro{"Apple M2 Pro", "m2-pro", 1.398, 8, 3.49, streamed(4.53)};
constexpr AppleChip kM2Max{"Apple M2 Max", "m2-max", 1.398, 8, 3.69, streamed(5.19)};
// [estimate] No mlx-benchmark run on an M2 Ultra: it streams as the M1 Ultra, two dies as well.
constexpr AppleChip kM2Ultra{"Apple M2 Ultra", "m2-ultra", 1.398, 8, 3.49, streamed(2.88)};
constexpr AppleChip kM3{"Apple M3", "m3", 1.398, 9, 4.05, streamed(7.92)};
constexpr AppleChip kM3Pro{"Apple M3 Pro", "m3-pro", 1.398, 9, 4.05, streamed(4.72)};
constexpr AppleChip kM3Max{"Apple M3 Max", "m3-max", 1.398, 9, 4.05, streamed(4.38)};
constexpr AppleChip kM3Ultra{"Apple M3 Ultra", "m3-ultra", 1.398, 9, 4.05, streamed(2.25)};
constexpr AppleChip kM4{"Apple M4", "m4", 1.47, 9, 4.4, streamed(7.47)};
// [clocks] The M4 Pro's GPU clock is not published: an estimate between the M4's and the M4 Max's.
constexpr AppleChip kM4Pro{"Apple M4 Pro", "m4-pro", 1.578, 9, 4.5, streamed(2.28)};
constexpr AppleChip kM4Max{"Apple M4 Max", "m4-max", 1.677, 9, 4.5, streamed(1.94)};

// The memory sizes each variant was offered with [apple].
constexpr int k8_16[] = {8, 16};
constexpr int k8_16_24[] = {8, 16, 24};
constexpr int k16_24[] = {16, 24};
constexpr int k16_24_32[] = {16, 24, 32};
constexpr int k16_32[] = {16, 32};
constexpr int k18_36[] = {18, 36};
constexpr int k24_48_64[] = {24, 48, 64};
constexpr int k32_64[] = {32, 64};
constexpr int k32_64_96[] = {32, 64, 96};
constexpr int k36[] = {36};
constexpr int k36_96[] = {36, 96};
constexpr int k48_64_128[] = {48, 64, 128};
constexpr int k64_128[] = {64, 128};
constexpr int k64_128_192[] = {64, 128, 192};
constexpr int k96_256[] = {96, 256};
constexpr int k96_256_512[] = {96, 256, 512};

// chip, performance and efficiency cores, GPU cores, bandwidth GB/s, AMX clusters, memory [apple]
constexpr ChipVariant kVariants[] = {
    {&kM1, 4, 4, 7, 68.25, 1, k8_16},  // the base MacBook Air and iMac
    {&kM1, 4, 4, 8, 68.25, 1, k8_16},
    {&kM1Pro, 6, 2, 14, 200, 2, k16_32},
    {&kM1Pro, 8, 2, 14, 200, 2, k16_32},
    {&kM1Pro, 8, 2, 16, 200, 2, k16_32},
    {&kM1Max, 8, 2, 24, 400, 2, k32_64},
    {&kM1Max, 8, 2, 32, 400, 2, k32_64},
    {&kM1Ultra, 16, 4, 48, 800, 4, k64_128},
    {&kM1Ultra, 16, 4, 64, 800, 4, k64_128},
    {&kM2, 4, 4, 8, 100, 1, k8_16_24},
    {&kM2, 4, 4, 10, 100, 1, k8_16_24},
    {&kM2Pro, 6, 4, 16, 200, 2, k16_32},
    {&kM2Pro, 8, 4, 19, 200, 2, k16_32},
    {&kM2Max, 8, 4, 30, 400, 2, k32_64},
    {&kM2Max, 8, 4, 38, 400, 2, k32_64_96},
    {&kM2Ultra, 16, 8, 60, 800, 4, k64_128_192},
    {&kM2Ultra, 16, 8, 76, 800, 4, k64_128_192},
    {&kM3, 4, 4, 8, 100, 1, k8_16_24},
    {&kM3, 4, 4, 10, 100, 1, k8_16_24},
    {&kM3Pro, 5, 6, 14, 150, 1, k18_36},
    {&kM3Pro, 6, 6, 18, 150, 1, k18_36},
    {&kM3Max, 10, 4, 30, 300, 2, k36_96},
    {&kM3Max, 12, 4, 40, 400, 2, k48_64_128},
    {&kM3Ultra, 20, 8, 60, 819, 4, k96_256},
    {&kM3Ultra, 24, 8, 80, 819, 4, k96_256_512},
    {&kM4, 4, 4, 8, 120, 1, k16_24},  // the base iMac
    {&kM4, 4, 6, 8, 120, 1, k16_24},  // the base MacBook Air
    {&kM4, 4, 6, 10, 120, 1, k16_24_32},
    {&kM4Pro, 8, 4, 16, 273, 2, k24_48_64},
    {&kM4Pro, 10, 4, 20, 273, 2, k24_48_64},
    {&kM4Max, 10, 4, 32, 410, 2, k36},
    {&kM4Max, 12, 4, 40, 546, 2, k48_64_128},
};

constexpr double kAppleKernelLaunch = 3e-6;    // [pt-82707]
constexpr double kAppleGraphCompile = 0.3e-3;  // [pt-124056]
constexpr double kEagerCpuOp = 0.9e-6;         // [pt-148219] a 1-element op on the cpu
// Committing a command buffer and hearing it completed (machine_profiles.cpp says more).
constexpr double kAppleSyncLatency = 0.3e-3;

int cpu_cores(const ChipVariant& v) { return v.performance_cores + v.efficiency_cores; }

// "m3-max-14cpu-30gpu-36gb"
std::string configuration_name(const ChipVariant& v, int memory_gb) {
  return std::string(v.chip->slug) + "-" + std::to_string(cpu_cores(v)) + "cpu-" +
         std::to_string(v.gpu_cores) + "gpu-" + std::to_string(memory_gb) + "gb";
}

// "Apple M3 Max (14-core CPU, 30-core GPU), 36 GB, macOS 15.6.1"
std::string configuration_summary(const ChipVariant& v, int memory_gb) {
  return std::string(v.chip->name) + " (" + std::to_string(cpu_cores(v)) + "-core CPU, " +
         std::to_string(v.gpu_cores) + "-core GPU), " + std::to_string(memory_gb) +
         " GB, macOS 15.6.1";
}

}  // namespace

std::span<const ChipVariant> chip_variants() { return kVariants; }

const ChipVariant& chip_variant(std::string_view chip, int gpu_cores, int cpu_cores_wanted) {
  const ChipVariant* found = nullptr;
  for (const ChipVariant& v : kVariants) {
    if (v.chip->name != chip || v.gpu_cores != gpu_cores) continue;
    if (cpu_cores_wanted != 0 && cpu_cores(v) != cpu_cores_wanted) continue;
    if (found == nullptr || cpu_cores(v) > cpu_cores(*found)) found = &v;
  }
  if (found == nullptr) {
    throw std::logic_error("no " + std::string(chip) + " with a " + std::to_string(gpu_cores) +
                           "-core GPU was sold");
  }
  return *found;
}

void fit_chip(MachineProfile& m, const ChipVariant& v) {
  const AppleChip& chip = *v.chip;
  m.gpu = GpuSpec{
      .name = chip.name,
      .fp32_flops = v.gpu_cores * 256 * chip.gpu_clock * 1e9,  // [hmc-tech] 128 ALUs x 2 per core
      .memory_bandwidth = v.bandwidth * 1e9,
      .cores = v.gpu_cores,
      .family = chip.gpu_family};
  const double host_speed =
      3.228 / chip.cpu_clock;  // [estimate] host overheads scale with the clock
  m.kernel_launch_seconds = kAppleKernelLaunch;
  m.host_dispatch_seconds = 20e-6 * host_speed;    // [pt-148219]
  m.metal_dispatch_seconds = 1.3e-6 * host_speed;  // [pt-148219]
  m.graph_compile_seconds = kAppleGraphCompile;
  m.sync_latency_seconds = kAppleSyncLatency;
  m.cpu_cores = cpu_cores(v);                                          // [apple]
  m.cpu_fp32_flops = v.performance_cores * chip.cpu_clock * 1e9 * 32;  // [cores]
  m.cpu_core_hz = chip.cpu_clock * 1e9;                                // [clocks]
  m.cpu_matrix_flops = v.clusters * 1475e9 * chip.cpu_clock / 3.228;   // [corsix-amx]
  m.cpu_memory_bandwidth = chip.cpu_bandwidth * 1e9;                   // [mlxb-cpu]
  m.cpu_op_seconds = kEagerCpuOp;
}

MachineProfile apple_silicon_mac(std::string_view name, std::string_view summary,
                                 const ChipVariant& variant, int memory_gb) {
  MachineProfile m;
  m.name = name;
  m.summary = summary;
  m.os = OperatingSystem::MacOS;
  m.os_version = {15, 6, 1};
  m.cpu_architecture = Architecture::Arm64;
  m.python_architecture = Architecture::Arm64;
  m.torch_built_with_mps = true;
  m.unified_memory = true;
  m.memory_bytes = static_cast<std::uint64_t>(memory_gb) * kBytesPerGiB;
  m.recommended_working_set_bytes =
      memory_gb <= 32 ? m.memory_bytes * 2 / 3 : m.memory_bytes * 3 / 4;  // [wss]
  m.max_buffer_length = m.memory_bytes / 2;  // [maxbuf] estimate: half the memory
  m.other_apps_bytes = (memory_gb <= 16 ? 3 : 6) * kBytesPerGiB;  // [scenario] macOS, a browser
  m.swap_bandwidth = 4e9;  // [estimate] the internal SSD's reads
  fit_chip(m, variant);
  return m;
}

std::span<const MachineProfile* const> apple_silicon_configurations() {
  // Built once; the profiles' names and summaries point into `texts`, which never moves them.
  static const std::vector<const MachineProfile*> all = [] {
    static std::deque<std::string> texts;
    static std::deque<MachineProfile> profiles;
    std::vector<const MachineProfile*> list;
    for (const ChipVariant& v : kVariants) {
      for (const int memory_gb : v.memory_gb) {
        const std::string& name = texts.emplace_back(configuration_name(v, memory_gb));
        const std::string& summary = texts.emplace_back(configuration_summary(v, memory_gb));
        list.push_back(&profiles.emplace_back(apple_silicon_mac(name, summary, v, memory_gb)));
      }
    }
    return list;
  }();
  return all;
}

}  // namespace engine::detail
