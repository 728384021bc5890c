// The course's machines: the six the lessons document, each a scenario of its own (an old
// macOS, an x86 Python, a Linux box), and the Macs of the cost model's published timings. The
// chips and every configuration Apple sold are in apple_silicon.cpp. Sources, by the tag in each
// comment (apple_silicon.cpp lists those of the chips):
//   [seed-003]   "State of PyTorch Metal support" (2025-09-02): nanoGPT shakespeare-char on a
//                MacBook Pro M3 Max, 64 GB, macOS Sequoia 15.6.1: ~221 ms/iter on mps, ~1986 on cpu
//   [apple]      Apple's technical specifications (memory bandwidth, GPU and CPU cores)
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
//   [pt-148219]  pytorch/pytorch#148219: ~20 us host dispatch per MPSGraph op, ~1.3 us per op
//                with its own Metal kernel, 0.9 us for a tiny op on the cpu (M1 Pro, 2025)
//   [pt-124056]  pytorch/pytorch#124056: ~0.3 ms to build each graph of a first forward (M2)
//   [zen4-box]   measured on a 2-core AMD EPYC (Zen 4) Linux VM: 3.59 GHz sustained, an FMA
//                loop at 230 GFLOP/s on 2 cores, PyTorch eager at ~1.2 us per small add
//   [scenario]   a course scenario, not a measurement: what else is open on the machine
//   [cores]      peak = performance cores x clock x 32 FP32 FLOP per cycle (four 128-bit FMA
//                pipes on Apple's cores, two 256-bit ones on AVX2 x86), from the vendors' core
//                counts and clocks; an estimate of the hardware, not a measurement of PyTorch
//   [fit]        fitted to the cost model's fit cases (tests/data/cost_model_cases.toml)
//   [estimate]   a plausible figure with no published measurement behind it

#include <string>
#include <vector>

#include "engine/machine.h"
#include "machine/apple_silicon.h"

namespace engine {
namespace {

using detail::chip_variant;

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

MachineProfile m3_max_64gb() {
  MachineProfile m;
  m.name = "m3-max-64gb";
  m.summary = "MacBook Pro, Apple M3 Max (40-core GPU), 64 GB, macOS 15.6.1 (the nanoGPT machine)";
  m.os = OperatingSystem::MacOS;
  m.os_version = {15, 6, 1};  // [seed-003]
  m.cpu_architecture = Architecture::Arm64;
  m.python_architecture = Architecture::Arm64;
  m.torch_built_with_mps = true;  // the macOS arm64 wheels are built with MPS
  // 40-core GPU at 1398 MHz: 14.32 TFLOPS [hmc-tech], 400 GB/s [apple]
  detail::fit_chip(m, chip_variant("Apple M3 Max", 40));
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
  // 8-core GPU: 2.6 TFLOPS [hmc-tech], LPDDR4X-4266 at 68.25 GB/s [apple]
  detail::fit_chip(m, chip_variant("Apple M1", 8));
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
  m.cpu_cores = 12;                   // [apple] 6 cores, two threads each: os.cpu_count() counts 12
  m.cpu_fp32_flops = 6 * 2.6e9 * 32;  // [cores] 6 cores at 2.6 GHz (Core i7-8850H)
  m.cpu_core_hz = 2.6e9;
  m.cpu_memory_bandwidth = 30e9;  // [estimate] dual-channel DDR4-2400
  m.cpu_op_seconds = kEagerCpuOp;
  return m;
}

// The misleading case of Note [macOS minimum of 2.9] (availability.cpp): a Mac that runs MPS
// well, on a macOS that PyTorch 2.9 no longer accepts, told it needs a version it already has.
MachineProfile m2_max_macos13() {
  MachineProfile m = detail::apple_silicon_mac(
      "m2-max-macos13.7",
      "MacBook Pro, Apple M2 Max (38-core GPU), 32 GB, macOS 13.7.4 (too old for 2.9's MPS)",
      chip_variant("Apple M2 Max", 38), 32);
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
  m.cpu_cores = 2;                 // [zen4-box]
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
  m.developer_directory = "";  // [scenario] that installer needs no Xcode tools, so none came
  m.cpu_has_avx2 = false;      // Rosetta 2 on macOS 14 does not translate AVX instructions
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
  m.cpu_cores = 8;                    // [apple] the M2's 4 performance and 4 efficiency cores
  m.cpu_fp32_flops = 4 * 3.5e9 * 16;  // [cores] 4 cores at 3.5 GHz, SSE only (no AVX under Rosetta)
  m.cpu_core_hz = 3.5e9;
  m.cpu_memory_bandwidth = 60e9;       // [estimate]
  m.cpu_op_seconds = 2 * kEagerCpuOp;  // [estimate] translated code runs the overhead slower
  return m;
}

// The Macs of the cost model's validation set (tests/data/cost_model_cases.toml), by the names
// the course gave them before every configuration had one.
struct ValidationMac {
  std::string_view name, summary, chip;
  int gpu_cores, memory_gb;
};
constexpr ValidationMac kValidationMacs[] = {
    {"m1-pro-16gb", "MacBook Pro, Apple M1 Pro (16-core GPU), 16 GB, macOS 15.6.1", "Apple M1 Pro",
     16, 16},
    {"m1-max-64gb", "MacBook Pro, Apple M1 Max (32-core GPU), 64 GB, macOS 15.6.1", "Apple M1 Max",
     32, 64},
    {"m1-ultra-64gb", "Mac Studio, Apple M1 Ultra (48-core GPU), 64 GB, macOS 15.6.1",
     "Apple M1 Ultra", 48, 64},
    {"m2-16gb", "MacBook Air, Apple M2 (10-core GPU), 16 GB, macOS 15.6.1", "Apple M2", 10, 16},
    {"m2-pro-16gb", "Mac mini, Apple M2 Pro (16-core GPU), 16 GB, macOS 15.6.1", "Apple M2 Pro", 16,
     16},
    {"m2-max-32gb", "MacBook Pro, Apple M2 Max (38-core GPU), 32 GB, macOS 15.6.1", "Apple M2 Max",
     38, 32},
    {"m3-16gb", "MacBook Pro, Apple M3 (10-core GPU), 16 GB, macOS 15.6.1", "Apple M3", 10, 16},
    {"m3-pro-18gb", "MacBook Pro, Apple M3 Pro (14-core GPU), 18 GB, macOS 15.6.1", "Apple M3 Pro",
     14, 18},
    {"m3-ultra-96gb", "Mac Studio, Apple M3 Ultra (60-core GPU), 96 GB, macOS 15.6.1",
     "Apple M3 Ultra", 60, 96},
    {"m4-16gb", "MacBook Air, Apple M4 (10-core GPU), 16 GB, macOS 15.6.1", "Apple M4", 10, 16},
    {"m4-pro-24gb", "Mac mini, Apple M4 Pro (20-core GPU), 24 GB, macOS 15.6.1", "Apple M4 Pro", 20,
     24},
    {"m4-max-128gb", "MacBook Pro, Apple M4 Max (40-core GPU), 128 GB, macOS 15.6.1",
     "Apple M4 Max", 40, 128},
};

}  // namespace

MachineProfile make_host_machine();  // host_machine.cpp

std::span<const MachineProfile* const> machines() {
  static const std::vector<const MachineProfile*> all = [] {
    static std::vector<MachineProfile> profiles{m3_max_64gb(),       m1_8gb(),
                                                intel_mac_macos12(), m2_max_macos13(),
                                                linux_x86_64(),      rosetta_x86_64()};
    for (const ValidationMac& mac : kValidationMacs) {
      profiles.push_back(detail::apple_silicon_mac(
          mac.name, mac.summary, chip_variant(mac.chip, mac.gpu_cores), mac.memory_gb));
    }
    profiles.push_back(make_host_machine());
    std::vector<const MachineProfile*> list;
    for (const MachineProfile& m : profiles) list.push_back(&m);
    return list;
  }();
  return all;
}

std::span<const MachineProfile* const> apple_silicon_configurations() {
  return detail::apple_silicon_configurations();
}

const MachineProfile& default_machine() { return *machines().front(); }

const MachineProfile* find_machine(std::string_view name) {
  for (const auto list : {machines(), apple_silicon_configurations()}) {
    for (const MachineProfile* m : list) {
      if (m->name == name) return m;
    }
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
