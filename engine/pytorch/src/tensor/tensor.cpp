// The Tensor handle: accessors, device and dtype conversion, reading values out, autograd
// bookkeeping and the in-place updates optimizers use. The operations live in ops/.

#include "engine/tensor.h"

#include <algorithm>
#include <iostream>
#include <limits>
#include <string>
#include <type_traits>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/ops.h"
#include "engine/type_promotion.h"
#include "kernels/kernels.h"
#include "machine/process.h"
#include "mps/availability.h"
#include "mps/stream.h"
#include "ops/broadcast.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// The same values with another dtype or on another device: always a new tensor.
Tensor convert(const Tensor& t, ScalarType dtype, Device device) {
  Tensor out = detail::allocate(t.sizes().vec(), dtype, device, detail::have_values({&t}));
  if (!out.impl().has_values()) return out;
  detail::visit_dtype(t.scalar_type(), [&](auto from_tag) {
    using From = decltype(from_tag);
    detail::visit_dtype(dtype, [&](auto to_tag) {
      using To = decltype(to_tag);
      const From* src = t.impl().data<From>();
      std::transform(src, src + t.numel(), out.impl().data<To>(),
                     [](From v) { return detail::cast_value<To>(v); });
    });
  });
  return out;
}

// _to_copy's gradient: the incoming gradient converted back to the source's device and dtype.
// Only a floating result is differentiable.
void record_copy(const Tensor& out, const Tensor& source) {
  if (!detail::should_record({&source}) || !out.is_floating_point()) return;
  const Device device = source.device();
  const ScalarType dtype = source.scalar_type();
  detail::record(
      out, "ToCopyBackward0", {source},
      [device, dtype](const Tensor& g) { return std::vector<Tensor>{g.to(device, dtype)}; },
      detail::Saves::NoTensors);
}

// PyTorch refuses in-place changes to a leaf that requires grad while recording, because they
// would silently change what the recorded graph computes; and a result that cannot be cast to
// the tensor's own dtype (TensorIterator's check: a float into an integer tensor).
void check_in_place(const Tensor& t, ScalarType result) {
  if (GradMode::is_enabled() && t.requires_grad()) {
    throw Error(
        t.is_leaf()
            ? "a leaf Variable that requires grad is being used in an in-place operation."
            : "the course engine does not record in-place operations on tensors in a graph");
  }
  if (!can_cast(result, t.scalar_type())) {
    throw Error("result type " + std::string(scalar_type_name(result)) +
                " can't be cast to the desired output type " +
                std::string(scalar_type_name(t.scalar_type())));
  }
}

// self = self op other, elementwise, other broadcast to self's shape, in self's compute type.
void update_in_place(kernels::BinaryOp op, const Tensor& self, const Tensor& other) {
  const std::vector<std::int64_t> shape = self.sizes().vec();
  detail::dispatch_compute(self.scalar_type(), [&](auto tag) {
    using C = decltype(tag);
    const detail::ValuesAs<C> a(self), b(other);
    detail::ResultAs<C> result(self);
    kernels::binary(op, a.data(), detail::broadcast_strides(shape, shape), b.data(),
                    detail::broadcast_strides(other.sizes(), shape), result.data(), shape);
    result.store();
  });
}

}  // namespace

Tensor::Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

TensorImpl& Tensor::impl() const {
  if (!impl_) throw Error("The tensor is undefined (default-constructed)");
  return *impl_;
}

IntArrayRef Tensor::sizes() const { return impl().sizes; }
std::int64_t Tensor::dim() const { return static_cast<std::int64_t>(impl().sizes.size()); }
std::int64_t Tensor::numel() const { return impl().numel(); }
std::int64_t Tensor::element_size() const {
  return static_cast<std::int64_t>(engine::elementSize(scalar_type()));
}
bool Tensor::is_floating_point() const { return engine::is_floating_point(scalar_type()); }
ScalarType Tensor::scalar_type() const { return impl().dtype; }
Device Tensor::device() const { return impl().device; }

std::int64_t Tensor::size(std::int64_t dim) const {
  return impl().sizes[static_cast<std::size_t>(detail::wrap_dim(dim, this->dim()))];
}

Tensor Tensor::to(Device target, bool non_blocking) const {
  const Device landing = detail::check_device_usable(target, detail::Placement::Copied);
  if (landing == device()) return *this;
  Tensor out = convert(*this, scalar_type(), landing);
  detail::copy_between(device(), landing, detail::nbytes(*this),
                       non_blocking ? detail::CopySync::Queue : detail::CopySync::Wait);
  record_copy(out, *this);
  return out;
}

Tensor Tensor::to(ScalarType dtype) const {
  if (dtype == scalar_type()) return *this;
  Tensor out = convert(*this, dtype, device());
  detail::launch({.name = "aten::_to_copy",
                  .kind = detail::OpKind::Copy,
                  .bytes = detail::nbytes(*this) + detail::nbytes(out),
                  .dtype = dtype},
                 device());
  record_copy(out, *this);
  return out;
}

// One _to_copy: converted where the values are, then moved, as two steps cost here; PyTorch
// converts during the copy.
Tensor Tensor::to(Device target, ScalarType dtype) const { return to(dtype).to(target); }

template <typename T>
T Tensor::item() const {
  if (numel() != 1) {
    throw Error("a Tensor with " + std::to_string(numel()) +
                " elements cannot be converted to Scalar");
  }
  if (!impl().has_values()) {
    // A what-if run still waits where the real script would; the value it would read does
    // not exist, and a floating-point NaN says so. Integers have no NaN: that is an error.
    if constexpr (std::is_floating_point_v<T>) {
      if (is_mps()) detail::copy_between(device(), Device(DeviceType::CPU), detail::nbytes(*this));
      return std::numeric_limits<T>::quiet_NaN();
    }
    detail::require_values(*this, "item()");
  }
  if (is_mps()) detail::copy_between(device(), Device(DeviceType::CPU), detail::nbytes(*this));
  T value{};
  detail::visit_dtype(scalar_type(), [&](auto tag) {
    using Stored = decltype(tag);
    value = detail::cast_value<T>(impl().data<Stored>()[0]);
  });
  return value;
}

bool Tensor::requires_grad() const { return impl().requires_grad; }

// THPVariable_requires_grad_: a computed tensor already requires grad, so asking for it again
// changes nothing; only turning it off is refused.
Tensor& Tensor::set_requires_grad(bool requires_grad) {
  if (!is_leaf() && !requires_grad) {
    throw Error(
        "you can only change requires_grad flags of leaf variables. If you want to use a computed "
        "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  }
  if (requires_grad && !engine::is_floating_point(scalar_type())) {
    throw Error("only Tensors of floating point dtype can require gradients");
  }
  if (is_leaf()) impl().requires_grad = requires_grad;
  return *this;
}

bool Tensor::is_leaf() const { return impl().grad_fn == nullptr; }
// TensorBase::grad(): reading a non-leaf's .grad, which backward() never fills, warns (TORCH_WARN;
// its text as PyTorch 2.11 prints it, tests/data/pytorch-2.11/probes.json). Python shows a
// warning once per line of the script; the engine, which has no lines, once per process.
Tensor Tensor::grad() const {
  if (!is_leaf() && !impl().grad.defined()) {
    detail::Process& p = detail::process();
    if (!p.nonleaf_grad_warned) {
      p.nonleaf_grad_warned = true;
      std::cerr
          << "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
             ".grad attribute won't be populated during autograd.backward(). If you indeed want the .grad "
             "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If "
             "you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
             "github.com/pytorch/pytorch/pull/30531 for more information.\n";
    }
  }
  return impl().grad;
}
void Tensor::set_grad(const Tensor& grad) const { impl().grad = grad; }
const std::shared_ptr<autograd::Node>& Tensor::grad_fn() const { return impl().grad_fn; }
void Tensor::backward() const { detail::run_backward(*this); }

Tensor& Tensor::add_(const Tensor& other, const Scalar& alpha) {
  check_in_place(*this, result_type(*this, other));
  detail::check_all_same_device({*this}, {*this, other}, detail::CpuScalars::Allowed);
  const std::vector<std::int64_t> shape = sizes().vec();
  if (detail::broadcast_shape(sizes(), other.sizes()) != shape) {
    throw Error("output with shape " + detail::sizes_string(sizes()) +
                " doesn't match the broadcast shape " +
                detail::sizes_string(detail::broadcast_shape(sizes(), other.sizes())));
  }
  const Tensor scaled = alpha.toDouble() == 1.0 ? other : other * alpha;
  if (detail::have_values({this, &scaled})) update_in_place(kernels::BinaryOp::Add, *this, scaled);
  detail::launch({.name = "aten::add_.Tensor",
                  .bytes = 2 * detail::nbytes(*this) + detail::nbytes(scaled),
                  .elements = static_cast<double>(numel()),
                  .dtype = scalar_type()},
                 device());
  return *this;
}

Tensor& Tensor::mul_(const Scalar& factor) {
  check_in_place(*this, result_type(*this, factor));
  if (impl().has_values()) {
    detail::dispatch_compute(scalar_type(), [&](auto tag) {
      using C = decltype(tag);
      const detail::ValuesAs<C> values(*this);
      detail::ResultAs<C> result(*this);
      kernels::binary_scalar(kernels::BinaryOp::Mul, values.data(), detail::scalar_value<C>(factor),
                             false, result.data(), numel());
      result.store();
    });
  }
  detail::launch({.name = "aten::mul_.Scalar",
                  .bytes = 2 * detail::nbytes(*this),
                  .elements = static_cast<double>(numel()),
                  .dtype = scalar_type()},
                 device());
  return *this;
}

Tensor& Tensor::zero_() {
  check_in_place(*this, scalar_type());
  if (impl().has_values()) {
    detail::visit_dtype(scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      std::fill_n(impl().data<T>(), numel(), T{});
    });
  }
  detail::launch({.name = "aten::zero_",
                  .bytes = detail::nbytes(*this),
                  .elements = static_cast<double>(numel()),
                  .dtype = scalar_type()},
                 device());
  return *this;
}

Tensor& Tensor::fill_(const Scalar& value) {
  check_in_place(*this, scalar_type());
  if (impl().has_values()) {
    detail::visit_dtype(scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      std::fill_n(impl().data<T>(), numel(), detail::scalar_value<T>(value));
    });
  }
  detail::launch({.name = "aten::fill_",
                  .bytes = detail::nbytes(*this),
                  .elements = static_cast<double>(numel()),
                  .dtype = scalar_type()},
                 device());
  return *this;
}

template <typename T>
T* Tensor::data_ptr() const {
  if (scalar_type() != scalar_type_of<T>()) {
    throw Error("expected scalar type " + std::string(scalar_type_name(scalar_type_of<T>())) +
                " but found " + std::string(scalar_type_name(scalar_type())));
  }
  if (!is_cpu()) {
    throw Error("data_ptr() of a " + device().str() +
                " tensor is a device address that host code must not read; use .cpu() first");
  }
  detail::require_values(*this, "data_ptr()");
  return impl().data<T>();
}

template <typename T>
std::vector<T> Tensor::to_vector() const {
  const Tensor on_cpu = cpu();  // keeps a copy from mps alive while it is read
  const T* begin = on_cpu.data_ptr<T>();
  return std::vector<T>(begin, begin + numel());
}

void Tensor::set_data(const Tensor& other) const {
  TensorImpl& self = impl();
  const TensorImpl& source = other.impl();
  self.storage = source.storage;
  self.buffer = source.buffer;
  self.offset = source.offset;
  self.sizes = source.sizes;
  self.dtype = source.dtype;
  self.device = source.device;
}

#define TUTOR_TENSOR_ACCESSORS(T)          \
  template T Tensor::item<T>() const;      \
  template T* Tensor::data_ptr<T>() const; \
  template std::vector<T> Tensor::to_vector<T>() const;
TUTOR_TENSOR_ACCESSORS(std::uint8_t)
TUTOR_TENSOR_ACCESSORS(std::int8_t)
TUTOR_TENSOR_ACCESSORS(std::int16_t)
TUTOR_TENSOR_ACCESSORS(std::int32_t)
TUTOR_TENSOR_ACCESSORS(std::int64_t)
TUTOR_TENSOR_ACCESSORS(Half)
TUTOR_TENSOR_ACCESSORS(float)
TUTOR_TENSOR_ACCESSORS(double)
TUTOR_TENSOR_ACCESSORS(bool)
TUTOR_TENSOR_ACCESSORS(BFloat16)
#undef TUTOR_TENSOR_ACCESSORS

}  // namespace engine
