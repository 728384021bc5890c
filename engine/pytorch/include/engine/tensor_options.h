#pragma once
// Models c10::TensorOptions: dtype, device and requires_grad for a factory call. Implicit
// conversions from a dtype or a device let calls read as in LibTorch:
// zeros({2, 3}, kInt64), randn({4}, Device("mps")), arange(6, TensorOptions().dtype(kFloat32)).

#include <optional>

#include "engine/device.h"
#include "engine/scalar_type.h"

namespace engine {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType dtype) : dtype_(dtype) {}              // NOLINT: implicit, as in c10
  TensorOptions(Device device) : device_(device) {}               // NOLINT: implicit, as in c10
  TensorOptions(DeviceType type) : device_(Device(type)) {}       // NOLINT: implicit, as in c10
  TensorOptions(const char* device) : device_(Device(device)) {}  // NOLINT: zeros(.., "mps")

  TensorOptions dtype(ScalarType dtype) const {
    TensorOptions copy = *this;
    copy.dtype_ = dtype;
    return copy;
  }
  TensorOptions device(Device device) const {
    TensorOptions copy = *this;
    copy.device_ = device;
    return copy;
  }
  TensorOptions requires_grad(bool enabled) const {
    TensorOptions copy = *this;
    copy.requires_grad_ = enabled;
    return copy;
  }

  // The factory's default when no dtype is given: float32, or int64 for integer arange/tensor.
  ScalarType dtype_or(ScalarType fallback) const { return dtype_.value_or(fallback); }
  Device device_or_cpu() const { return device_.value_or(Device(DeviceType::CPU)); }
  bool requires_grad() const { return requires_grad_; }

 private:
  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
  bool requires_grad_ = false;
};

inline TensorOptions dtype(ScalarType type) { return TensorOptions().dtype(type); }
inline TensorOptions device(Device where) { return TensorOptions().device(where); }
inline TensorOptions requires_grad(bool enabled = true) {
  return TensorOptions().requires_grad(enabled);
}

}  // namespace engine
