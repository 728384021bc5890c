#pragma once
// Automatic mixed precision (aten/src/ATen/autocast_mode.h, torch/amp/autocast_mode.py). While
// autocast is on for a device type, the operations PyTorch 2.9 lists for it cast their
// floating-point inputs first: matrix products and convolutions to the lower precision (float16
// on mps, bfloat16 on the cpu, by default), the numerically sensitive ones (softmax, layer norm,
// losses, sums on mps) to float32, and a few to the widest of their inputs' types; the rest run
// in whatever dtype their inputs have (Note [Autocast's op lists], src/amp/policy.cpp).
//
// LibTorch's at::autocast functions are torch::autocast's (torch's namespace uses at's); the
// context manager is Python's, py::torch::autocast, a guard that turns autocast on for its scope
// and puts the previous state back when it ends, as `with torch.autocast(...)` does.

#include <optional>
#include <string_view>

#include "engine/device.h"
#include "engine/scalar_type.h"

namespace engine::autocast {

bool is_autocast_enabled(DeviceType device_type);
void set_autocast_enabled(DeviceType device_type, bool enabled);
// The lower precision of a device type: float16 for mps (and cuda), bfloat16 for the cpu, until
// set otherwise.
ScalarType get_autocast_dtype(DeviceType device_type);
void set_autocast_dtype(DeviceType device_type, ScalarType dtype);
// Casts of float32 weights (leaves that require grad) to the lower precision are kept and reused
// while autocast is on; leaving the outermost autocast region forgets them.
bool is_autocast_cache_enabled();
void set_autocast_cache_enabled(bool enabled);
void clear_cache();
// How many autocast regions enclose the current code (the context manager counts them).
int increment_nesting();
int decrement_nesting();

}  // namespace engine::autocast

namespace engine::py::torch {

// `with torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None):`. A dtype
// other than float16 or bfloat16 warns, as PyTorch does, and leaves autocast off; so does
// device_type "cuda" on a machine without CUDA. An unknown device type is an error.
class autocast {
 public:
  explicit autocast(std::string_view device_type, std::optional<ScalarType> dtype = std::nullopt,
                    bool enabled = true, std::optional<bool> cache_enabled = std::nullopt);
  ~autocast();
  autocast(const autocast&) = delete;
  autocast& operator=(const autocast&) = delete;

 private:
  DeviceType device_;
  ScalarType fast_dtype_;
  bool enabled_;
  bool cache_enabled_;
  bool previous_enabled_ = false;
  ScalarType previous_dtype_ = ScalarType::Float;
  bool previous_cache_enabled_ = true;
};

}  // namespace engine::py::torch
