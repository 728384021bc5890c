#pragma once
// What each kernel of a torch.mps.compile_shader library did when it was called, recorded while
// a sim::KernelLaunchRecording is alive: the grid and its threadgroups, the memory it used and
// the time the simulated GPU took. Not a PyTorch API. On a Mac, Xcode's Metal debugger and
// Instruments' Metal System Trace show the same numbers for one captured dispatch. A lab checks
// a kernel's budget with it (labs/09_metal_puzzles); the site draws each launch from it.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace engine::sim {

struct KernelLaunch {
  std::string kernel;                    // the kernel function's name
  std::array<std::uint64_t, 3> grid{};   // threads in the grid (width, height, depth)
  std::array<std::uint64_t, 3> group{};  // threads per threadgroup, as the call asked
  std::uint64_t threadgroups = 0;        // how many threadgroups ran
  std::int64_t threadgroup_memory = 0;   // bytes of threadgroup memory each one allocated
  double device_loads = 0;               // values read from device buffers, by every thread
  double device_transaction_bytes = 0;   // 128-byte lines moved, per SIMD group's access
  double barriers = 0;                   // threadgroup barriers, summed over threadgroups
  // Per thread of the grid, x fastest: whether it read and wrote no device memory (a thread of
  // the grid's tail that its guard stopped).
  std::vector<bool> idle_threads;
  double seconds = 0;  // its time on the simulated GPU, launch included

  std::uint64_t threads() const noexcept { return grid[0] * grid[1] * grid[2]; }
  std::uint64_t idle_thread_count() const noexcept {
    return static_cast<std::uint64_t>(std::count(idle_threads.begin(), idle_threads.end(), true));
  }
  // Device reads per thread of the grid, on average.
  double device_loads_per_thread() const noexcept {
    return threads() == 0 ? 0 : device_loads / static_cast<double>(threads());
  }
};

// Records every kernel launch from its construction to its destruction (recordings may nest).
class KernelLaunchRecording {
 public:
  KernelLaunchRecording();
  ~KernelLaunchRecording();
  KernelLaunchRecording(const KernelLaunchRecording&) = delete;
  KernelLaunchRecording& operator=(const KernelLaunchRecording&) = delete;

  const std::vector<KernelLaunch>& launches() const noexcept { return launches_; }
  void add(KernelLaunch launch) { launches_.push_back(std::move(launch)); }

 private:
  std::vector<KernelLaunch> launches_;
};

}  // namespace engine::sim
