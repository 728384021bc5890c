#pragma once
// Models at::Tensor: a reference-counted handle to values with a shape, a dtype and a device.
// Copying a Tensor shares the values, as in LibTorch; to() makes a copy on another device.
// Values are real numbers computed on the host for every device, mps included: the emulator
// changes where PyTorch says the work happens and what it costs, not the arithmetic.
// Simplifications (the lessons say so where it matters): tensors are always contiguous, and
// only float32 and int64 exist.

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/device.h"
#include "engine/int_array_ref.h"
#include "engine/scalar_type.h"

namespace engine {

struct TensorImpl;

class Tensor {
 public:
  Tensor() = default;  // an undefined tensor, like at::Tensor()
  explicit Tensor(std::shared_ptr<TensorImpl> impl);

  bool defined() const noexcept { return impl_ != nullptr; }
  IntArrayRef sizes() const;
  std::int64_t size(std::int64_t dim) const;  // negative dims count from the end
  std::int64_t dim() const;
  std::int64_t numel() const;
  ScalarType scalar_type() const;
  ScalarType dtype() const { return scalar_type(); }
  Device device() const;
  bool is_cpu() const { return device().is_cpu(); }
  bool is_mps() const { return device().is_mps(); }

  // A copy on `device` (or this tensor itself when it already lives there, as in PyTorch).
  Tensor to(Device device) const;
  Tensor to(ScalarType dtype) const;
  Tensor cpu() const { return to(Device(DeviceType::CPU)); }

  // Same values, new shape; one dimension may be -1 and is inferred.
  Tensor reshape(IntArrayRef shape) const;
  Tensor mean(IntArrayRef dims, bool keepdim = false) const;
  Tensor mean() const;  // over every element
  Tensor matmul(const Tensor& other) const;

  // The values of a cpu tensor; T must match the dtype.
  template <typename T>
  T* data_ptr() const;
  // The values copied out, in row-major order.
  template <typename T>
  std::vector<T> to_vector() const;

  // Replaces the values, shape and device behind every handle to this tensor (what
  // Module::to does to parameters, like `param.data = param.data.to(device)`).
  void set_data(const Tensor& other) const;
  bool is_same(const Tensor& other) const noexcept { return impl_ == other.impl_; }

  TensorImpl& impl() const;

 private:
  std::shared_ptr<TensorImpl> impl_;
};

Tensor matmul(const Tensor& a, const Tensor& b);

}  // namespace engine
