#pragma once
// Internal: hands each compile_shader kernel launch to the live sim::KernelLaunchRecordings.

#include <string_view>

#include "engine/metal/dispatch.h"

namespace engine::detail {

// `seconds`: the kernel's time on the simulated GPU, as the stream prices it.
void record_kernel_launch(std::string_view kernel, const metal::DispatchWork& work, double seconds);

}  // namespace engine::detail
