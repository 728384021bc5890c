// sim::KernelLaunchRecording (engine/kernel_launches.h): the live recordings, fed by each call
// of a compile_shader kernel.

#include "mps/kernel_launches.h"

#include <vector>

#include "engine/kernel_launches.h"

namespace engine {
namespace {

std::vector<sim::KernelLaunchRecording*>& live_recordings() {
  static std::vector<sim::KernelLaunchRecording*> live;
  return live;
}

}  // namespace

namespace sim {

KernelLaunchRecording::KernelLaunchRecording() { live_recordings().push_back(this); }

KernelLaunchRecording::~KernelLaunchRecording() { std::erase(live_recordings(), this); }

}  // namespace sim

namespace detail {

void record_kernel_launch(std::string_view kernel, const metal::DispatchWork& work,
                          double seconds) {
  if (live_recordings().empty()) return;
  const sim::KernelLaunch launch{.kernel = std::string(kernel),
                                 .grid = {work.grid.width, work.grid.height, work.grid.depth},
                                 .group = {work.group.width, work.group.height, work.group.depth},
                                 .threadgroups = work.threadgroups,
                                 .threadgroup_memory = work.threadgroup_memory,
                                 .device_loads = work.device_loads,
                                 .device_transaction_bytes = work.device_transaction_bytes,
                                 .barriers = work.barriers,
                                 .idle_threads = work.idle_threads,
                                 .seconds = seconds};
  for (sim::KernelLaunchRecording* recording : live_recordings()) recording->add(launch);
}

}  // namespace detail
}  // namespace engine
