#pragma once
// Internal: the work a dispatch does, counted as it runs (DispatchWork in dispatch.h).
//
// Note [Counting a dispatch's work]
// An Apple GPU issues each instruction once per SIMD group of 32 threads, whatever how many of
// them are active, so arithmetic is counted per SIMD-group issue, weighted by the instruction's
// throughput in ALU cycles (philipturner/metal-benchmarks: an FP32 add, multiply or FMA takes
// one; EXP2 and LOG2 four; RECIP six; RSQRT and SQRT eight; a sine fourteen; an integer
// multiply four; a float-to-integer conversion four). Device memory moves in 128-byte cache
// lines (the same source's "Global Cache Line" for Apple 7 and 8), so each load or store
// instruction moves, per SIMD group, every distinct line its threads touch: 32 consecutive
// floats take one line, 32 floats 4 KB apart take 32 (this is coalescing). The distinct lines
// the whole dispatch touches are its footprint, what DRAM must supply at least once. Accesses
// of threadgroup memory, barriers and atomics are counted as they happen, and so is each thread's
// load of a value from a device buffer, which a lab's budget of reads per thread counts, and the
// threads that touched no device memory (the site draws them as the grid's idle tail). The cost model
// (engine/pytorch/src/machine/shader_cost.cpp) prices these counts on a chip.

#include <cstdint>
#include <span>
#include <vector>

#include "engine/metal/dispatch.h"

namespace engine::metal::detail {

inline constexpr std::uint64_t kCacheLineBytes = 128;

// ALU cycles of one SIMD-group issue of each kind of instruction.
enum class Cost : std::uint8_t {
  Simple = 1,
  Transcendental = 4,
  Reciprocal = 6,
  Root = 8,
  Sine = 14,
  Multiply = 4,
  Convert = 4
};

class WorkCounter {
 public:
  WorkCounter(DispatchWork& work, std::span<const BufferBinding> buffers);

  void alu(double cycles, int simd_groups) { work_.alu_cycles += cycles * simd_groups; }
  void barrier() { work_.barriers += 1; }
  void atomics(std::size_t operations) {
    work_.atomic_operations += static_cast<double>(operations);
  }
  void threadgroup(int simd_groups) { work_.threadgroup_accesses += simd_groups; }
  // One thread's load of a value from a device buffer (a constant one is cached, so not counted).
  void device_load() { work_.device_loads += 1; }
  // The thread `global_id` (its linear position in the grid) read or wrote device memory.
  void thread_touched_device(std::uint32_t global_id) { work_.idle_threads[global_id] = false; }

  // One device load or store instruction: the lines it touches, thread by thread, in
  // ascending thread order.
  void begin_instruction();
  void device_access(std::uint32_t buffer, std::uint64_t byte, std::uint16_t lane);
  void end_instruction();
  // At the end of the dispatch: the footprint.
  void finish();

 private:
  void flush_simd_group();

  DispatchWork& work_;
  std::vector<std::vector<std::uint64_t>> touched_;  // per buffer, a bit per line
  std::vector<std::uint64_t> group_lines_;           // the current SIMD group's lines
  int simd_group_ = -1;
  std::uint64_t last_line_ = ~std::uint64_t{0};  // neighbours mostly share a line
};

}  // namespace engine::metal::detail
