#pragma once
// Internal: Apple's chips as the cost model sees them, and every Mac configuration they were sold
// in (apple_silicon.cpp holds the table and its sources). A chip's variants differ in how many
// CPU and GPU cores Apple left enabled ("binned" parts) and, for the M3 Max and M4 Max, in memory
// bandwidth; the per-chip constants (clocks, GPU family, the cpu's streaming rate) apply to all
// of them, so a variant's FP32 peak scales with its GPU cores.

#include <span>
#include <string_view>

#include "engine/machine.h"

namespace engine::detail {

struct AppleChip {
  std::string_view name;  // "Apple M3 Max"
  std::string_view slug;  // "m3-max": how machine names start
  double gpu_clock;       // GHz [clocks]
  int gpu_family;         // MTLGPUFamilyApple7 (M1), 8 (M2), 9 (M3, M4)
  double cpu_clock;       // GHz of the performance cores [clocks]
  double cpu_bandwidth;   // GB/s PyTorch's cpu kernels stream [mlxb-cpu]
};

// One CPU and GPU configuration of a chip, and the memory sizes it was sold with.
struct ChipVariant {
  const AppleChip* chip;
  int performance_cores;
  int efficiency_cores;
  int gpu_cores;
  double bandwidth;  // GB/s [apple]
  int clusters;      // performance-core clusters, one AMX unit each
  std::span<const int> memory_gb;
};

// Every variant of every chip, M1 to M4 with their Pro, Max and Ultra.
std::span<const ChipVariant> chip_variants();
// The variant of `chip` ("Apple M3 Max") with `gpu_cores` and, where a chip sells the same GPU
// with several CPUs, `cpu_cores` (0: the only one, or the larger CPU). Throws std::logic_error
// for one that was never sold: the table is the engine's, not the learner's.
const ChipVariant& chip_variant(std::string_view chip, int gpu_cores, int cpu_cores = 0);

// The GPU, the MPS overheads and the cpu numbers of a Mac with `variant`.
void fit_chip(MachineProfile& m, const ChipVariant& variant);
// A Mac with `variant` and `memory_gb` of unified memory on macOS 15.6.1, with the scenario's
// other applications (machine_profiles.cpp's [scenario]).
MachineProfile apple_silicon_mac(std::string_view name, std::string_view summary,
                                 const ChipVariant& variant, int memory_gb);

// One profile per configuration sold, named "m3-max-14cpu-30gpu-36gb", in the table's order.
std::span<const MachineProfile* const> apple_silicon_configurations();

}  // namespace engine::detail
