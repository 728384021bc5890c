#pragma once
// Running a kernel over a grid, as MTLComputeCommandEncoder.dispatchThreads runs one: the grid
// of threads is cut into threadgroups (smaller ones at its far edges: Apple GPUs support
// nonuniform threadgroups), each threadgroup into SIMD groups of 32 threads. Note [Lockstep
// threadgroups] in src/threadgroup_run.h says how the emulator runs them and what it checks;
// a kernel that breaks Metal's rules (an access out of bounds, a data race on threadgroup or
// device memory, a barrier some threads of the group never reach) stops with a KernelFault
// naming the source line and the thread, never with silent garbage.
//
// The work a dispatch did is counted (DispatchWork) for the cost model to price; nothing here
// knows a machine or a tensor.

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/metal/library.h"

namespace engine::metal {

// Apple's Metal feature set tables (developer.apple.com/metal/Metal-Feature-Set-Tables.pdf),
// for every Apple-silicon GPU family (Apple7 to Apple9, and Mac2): at most 1,024 threads and
// 32 KiB of threadgroup memory per threadgroup; threadExecutionWidth, the SIMD-group width, is 32.
inline constexpr std::uint64_t kMaxThreadsPerThreadgroup = 1024;
inline constexpr std::int64_t kMaxThreadgroupMemoryBytes = 32 * 1024;
inline constexpr int kSimdWidth = 32;

struct Size3 {
  std::uint64_t width = 1, height = 1, depth = 1;
  std::uint64_t count() const noexcept { return width * height * depth; }
};

// How many threadgroups of `group` threads cover `grid` threads, in each dimension.
inline Size3 threadgroups_in(Size3 grid, Size3 group) {
  return {(grid.width + group.width - 1) / group.width,
          (grid.height + group.height - 1) / group.height,
          (grid.depth + group.depth - 1) / group.depth};
}

// The memory bound at one buffer index: a device buffer (a tensor's bytes) or the bytes the
// host set (setBytes). `label` names it in a fault: "a tensor of 16 float32 values".
struct BufferBinding {
  std::span<std::byte> bytes;
  std::string label;
  bool bound = false;
};

// A kernel that broke one of Metal's rules while running. what() reads as a debugger's report:
//   program_source:4:5: error: out-of-bounds write ...
//   by thread (16, 0, 0) of the grid, thread (0, 0, 0) of threadgroup (1, 0, 0)
//       out[idx] = val;
//       ^
class KernelFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a dispatch did, summed over its threads (Note [Counting a dispatch's work] in
// src/work_counter.h says what each counter counts).
struct DispatchWork {
  Size3 grid;
  Size3 group;                          // threads per threadgroup, as requested
  std::uint64_t threadgroups = 0;       // how many ran
  std::int64_t threadgroup_memory = 0;  // bytes each threadgroup allocates
  double alu_cycles = 0;                // SIMD-group instruction issues, in ALU cycles
  double device_transaction_bytes = 0;  // 128-byte lines moved per SIMD-group access
  double device_footprint_bytes = 0;    // distinct 128-byte lines the dispatch touched
  double device_loads = 0;              // loads from device buffers, one per thread and value
  // Per thread of the grid, in linear order (x fastest): whether it read or wrote no device
  // memory at all, as a thread of the grid's tail stopped by its guard does.
  std::vector<bool> idle_threads;
  double threadgroup_accesses = 0;  // SIMD-group accesses of threadgroup memory
  double barriers = 0;              // barriers, summed over threadgroups
  double atomic_operations = 0;     // atomic operations, one per thread
};

// Runs `kernel` over `grid` threads in threadgroups of `group` threads, with `buffers[i]` bound
// at buffer index i. Throws std::invalid_argument for a launch Metal refuses (a threadgroup of
// more than 1,024 threads or none, a missing buffer) and KernelFault for a kernel that breaks
// Metal's rules while running.
DispatchWork dispatch(const Kernel& kernel, std::span<const BufferBinding> buffers, Size3 grid,
                      Size3 group);

}  // namespace engine::metal
