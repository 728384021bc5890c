#pragma once
// Internal: the checks every placement on a device goes through.

#include "engine/device.h"

namespace engine::detail {

// The device a new tensor on `device` lands on ("mps" becomes "mps:0"), or PyTorch's error
// for a device this simulated process cannot use.
Device check_device_usable(Device device);

}  // namespace engine::detail
