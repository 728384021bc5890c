#pragma once
// Models at::Tensor: a reference-counted handle to values with a shape, a dtype and a device.
// Copying a Tensor shares the values, as in LibTorch; to() makes a copy on another device.
// Values are real numbers computed on the host for every device, mps included: the emulator
// changes where PyTorch says the work happens and what it costs, not the arithmetic.
// Tensors take part in reverse-mode autograd (engine/autograd.h) as in PyTorch.
// Dtypes are PyTorch's (engine/scalar_type.h), promoted as PyTorch promotes them
// (engine/type_promotion.h). Simplification (the lessons say so where it matters): tensors are
// always contiguous, so a slice along any dimension but the first is a copy rather than a view.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/device.h"
#include "engine/int_array_ref.h"
#include "engine/scalar.h"
#include "engine/scalar_type.h"

namespace engine {

struct TensorImpl;
namespace autograd {
class Node;
}

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
  std::int64_t element_size() const;  // bytes per element: 2 for float16, 4 for float32, ...
  bool is_floating_point() const;
  Device device() const;
  bool is_cpu() const { return device().is_cpu(); }
  bool is_mps() const { return device().is_mps(); }

  // A copy on `device` (or this tensor itself when it already lives there, as in PyTorch).
  // Differentiable: gradients flow back to the source device. A copy between the cpu and mps
  // makes the host wait until it has landed, unless `non_blocking`: then it is queued behind
  // the GPU's work and the host goes on (LibTorch's to(options, non_blocking)).
  Tensor to(Device device, bool non_blocking = false) const;
  // The values converted to `dtype` (or this tensor itself when it has that dtype): rounded to
  // nearest even into a narrower floating type; differentiable between floating types.
  Tensor to(ScalarType dtype) const;
  Tensor to(Device device, ScalarType dtype) const;
  Tensor cpu() const { return to(Device(DeviceType::CPU)); }

  // Same values, new shape; one dimension may be -1 and is inferred.
  Tensor reshape(IntArrayRef shape) const;
  // The same values seen in another shape: a reshape, since the engine's tensors are always
  // contiguous (a view in PyTorch; its autograd node is ViewBackward0 either way).
  Tensor view(IntArrayRef shape) const { return reshape(shape); }
  // Elements start <= i < end along `dim` (Python's t[start:end] on dim 0), ends clamped as
  // Python clamps them.
  Tensor slice(std::int64_t dim, std::int64_t start, std::int64_t end) const;
  // Dimensions d0 and d1 swapped (a copy here; a view in PyTorch).
  Tensor transpose(std::int64_t d0, std::int64_t d1) const;
  Tensor mean(IntArrayRef dims, bool keepdim = false) const;
  Tensor mean() const;  // over every element
  Tensor sum(IntArrayRef dims, bool keepdim = false) const;
  Tensor sum() const;
  Tensor matmul(const Tensor& other) const;

  // The single value of a one-element tensor; reading it from mps waits for the device.
  template <typename T>
  T item() const;

  // --- autograd -----------------------------------------------------------------------------
  bool requires_grad() const;
  // Marks a leaf tensor as a parameter to differentiate; float32 only, as in PyTorch.
  Tensor& set_requires_grad(bool requires_grad);
  Tensor& requires_grad_(bool requires_grad = true) { return set_requires_grad(requires_grad); }
  bool is_leaf() const;
  // The accumulated gradient of a leaf after backward(); undefined before, or after zero_grad.
  Tensor grad() const;
  void set_grad(const Tensor& grad) const;
  // The function that made this tensor, null for a leaf ("AddmmBackward0", ...).
  const std::shared_ptr<autograd::Node>& grad_fn() const;
  // Differentiates this one-element tensor with respect to every leaf that requires grad.
  void backward() const;
  // The same values, cut from the graph: shares storage, never requires grad.
  Tensor detach() const;
  // A copy of the values that stays in the graph.
  Tensor clone() const;

  // --- in place, for optimizers: refused on a leaf that requires grad unless under
  // NoGradGuard, as PyTorch refuses it ----------------------------------------------------------
  Tensor& add_(const Tensor& other, const Scalar& alpha = 1);
  Tensor& mul_(const Scalar& factor);
  Tensor& zero_();
  Tensor& fill_(const Scalar& value);

  // The values of a cpu tensor; T must match the dtype.
  template <typename T>
  T* data_ptr() const;
  // The values copied out, in row-major order (an engine convenience for tests and lessons).
  template <typename T>
  std::vector<T> to_vector() const;

  // Replaces the values, shape and device behind every handle to this tensor (what
  // Module::to does to parameters, like `param.data = param.data.to(device)`).
  void set_data(const Tensor& other) const;
  bool is_same(const Tensor& other) const noexcept { return impl_ == other.impl_; }
  // How many handles share this tensor.
  std::size_t use_count() const noexcept { return static_cast<std::size_t>(impl_.use_count()); }

  TensorImpl& impl() const;

 private:
  std::shared_ptr<TensorImpl> impl_;
};

Tensor matmul(const Tensor& a, const Tensor& b);

}  // namespace engine
