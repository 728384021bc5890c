#pragma once
// Internal: the checks every placement on a device goes through.

#include "engine/device.h"

namespace engine::detail {

// How a tensor reaches a device: allocated there by a factory's kernel (zeros, randn), which
// the dispatcher finds by the device, or copied there (to(), tensor(...), Module::to), which
// asks for the device's guard first. Where the build has no MPS backend the two fail in
// different words: NotImplementedError from the dispatcher, RuntimeError from the guard.
enum class Placement { Allocated, Copied };

// The device a new tensor on `device` lands on ("mps" becomes "mps:0"), or PyTorch's error
// for a device this simulated process cannot use.
Device check_device_usable(Device device, Placement placement);

}  // namespace engine::detail
