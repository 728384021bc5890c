// Note [Pricing a Metal kernel]
// A torch.mps.compile_shader kernel is priced from the work its dispatch actually did
// (engine/metal's DispatchWork: Note [Counting a dispatch's work] in engine/metal/src/
// work_counter.h), on the chip's own numbers, as a roofline like the other kernels' (Note [The
// cost model] in cost_model.cpp): the slowest of its arithmetic, its device-memory traffic and
// its threadgroup-memory traffic, plus what barriers and atomics add. mps_kernel_seconds adds
// the launch cost every MPS kernel pays. Sources, by tag (philipturner/metal-benchmarks, the
// README of its commit dc2adc6, is [mb]):
//   - arithmetic: the ALU cycles of its SIMD-group issues, four issues a cycle on each GPU core
//     (128 ALUs, four SIMD groups of 32 [mb]), at the chip's clock, fp32_flops / (256 cores)
//     (machine_profiles.cpp), on the cores its threadgroups occupy, the busiest of which (with
//     ceil(threadgroups / cores) of them) sets the time;
//   - device memory: the lines it touched, from DRAM at the share of bandwidth streaming
//     kernels reach (streaming_share, [fit] on MPS's own kernels); and every line its SIMD
//     groups moved, from the GPU's caches at 32 bytes a cycle per core ("On-GPU Data BW/Cycle
//     ~32 B" [mb]): a gather that moves a line per thread pays for it even when the lines
//     come from cache;
//   - threadgroup memory: one SIMD-group access a cycle per core [estimate: [mb] lists its
//     bandwidth as TBD];
//   - occupancy: a core holds as many threadgroups as its threads (kResidentThreadsPerCore)
//     and its threadgroup memory (about 60 KB [mb]) allow; the ALUs are fully used from 24
//     resident SIMD groups on ("ALU utilization maxes out at 24 simds/core" [mb]); with fewer,
//     its arithmetic, cache and threadgroup traffic run proportionally slower, and DRAM streams
//     at most at that share of its full rate [estimate: memory latency is assumed to need as
//     many SIMD groups to hide as arithmetic does]; the latency a small transfer pays anyway
//     (streaming_share's ramp) is not lengthened by it, so a smaller dispatch of a kernel never
//     costs more than a larger one;
//   - a barrier stalls its threadgroup kBarrierCycles [estimate], hidden by the other
//     threadgroups resident on its core; atomics on device memory take kAtomicCycles of their
//     core each [estimate].
// None of this is fitted: no published timings of custom kernels were at hand, so every
// estimate above is marked, and lesson 10 compares these prices with MPS's own kernels only.

#include <algorithm>
#include <cmath>

#include "engine/metal/dispatch.h"
#include "machine/cost_model.h"

namespace engine::detail {
namespace {

constexpr double kIssuesPerCycle = 4;               // [mb] SIMD groups issued per cycle per core
constexpr double kCacheBytesPerCycle = 32;          // [mb] per core
constexpr double kThreadgroupAccessesPerCycle = 1;  // [estimate] per core
constexpr double kResidentThreadsPerCore = 2048;    // [estimate] within [mb]'s 384-3072
constexpr double kThreadgroupMemoryPerCore = 60 * 1024;  // [mb] "~60 KB"
constexpr double kSimdGroupsForFullUse = 24;             // [mb]
constexpr double kBarrierCycles = 32;                    // [estimate]
constexpr double kAtomicCycles = 4;                      // [estimate]
// [measured] Compiling a library from source: ghostty-org/ghostty#2056 found its Metal shaders
// took "around 400us" to compile at run time on a Mac.
constexpr double kShaderCompileSeconds = 400e-6;

}  // namespace

double shader_compile_seconds(const MachineProfile& /*machine*/) { return kShaderCompileSeconds; }

double shader_kernel_seconds(const metal::DispatchWork& work, const MachineProfile& machine,
                             double paged) {
  const GpuSpec gpu = machine.gpu.value_or(GpuSpec{});
  if (work.threadgroups == 0 || gpu.fp32_flops <= 0) return 0;
  const double clock = gpu.fp32_flops / (256.0 * gpu.cores);
  const auto groups = static_cast<double>(work.threadgroups);
  const auto group_threads = static_cast<double>(work.group.count());
  // The busiest core runs ceil(groups / cores) threadgroups and sets the time: the work is as
  // if spread evenly over groups / that many cores.
  const double groups_per_core = std::ceil(groups / gpu.cores);
  const double cores = groups / groups_per_core;
  double resident = std::min(std::floor(kResidentThreadsPerCore / group_threads), groups_per_core);
  if (work.threadgroup_memory > 0)
    resident = std::min(resident, std::floor(kThreadgroupMemoryPerCore /
                                             static_cast<double>(work.threadgroup_memory)));
  resident = std::max(resident, 1.0);
  const double simd_groups = resident * std::ceil(group_threads / metal::kSimdWidth);
  const double occupancy = std::min(1.0, simd_groups / kSimdGroupsForFullUse);
  const double core_cycles =
      cores * clock * occupancy;  // cycles per second the kernel's cores give
  const double arithmetic = work.alu_cycles / (kIssuesPerCycle * core_cycles);
  // Few resident SIMD groups keep few lines in flight: they cap the rate DRAM streams at, while
  // the latency of a small transfer (streaming_share's ramp) stays what it is.
  const double bytes = work.device_footprint_bytes;
  const double dram = std::max(
      gpu_memory_seconds(bytes, streaming_share(bytes, machine), machine, paged),
      gpu_memory_seconds(bytes, full_streaming_share(machine) * occupancy, machine, paged));
  const double cache = work.device_transaction_bytes / (kCacheBytesPerCycle * core_cycles);
  const double threadgroup =
      work.threadgroup_accesses / (kThreadgroupAccessesPerCycle * core_cycles);
  const double barriers = work.barriers * kBarrierCycles / (cores * resident * clock);
  const double atomics = work.atomic_operations * kAtomicCycles / (cores * clock);
  return std::max({arithmetic, dram, cache, threadgroup}) + barriers + atomics;
}

}  // namespace engine::detail
