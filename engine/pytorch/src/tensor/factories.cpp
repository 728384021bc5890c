#include "engine/factories.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/errors.h"
#include "machine/process.h"
#include "mps/availability.h"
#include "mps/stream.h"
#include "random/samplers.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// How a factory's values reach their device: filled there by a kernel (zeros, randn), or
// copied from the host (tensor(...), whose values come from the script).
enum class Origin { Kernel, Host };

// The placement check runs first, so an unusable device fails before any work. The engine
// computes the values on the host for every device; the cost is charged where PyTorch does
// the work. (Simplification: randn on mps draws from the cpu generator; PyTorch has a separate
// MPS generator, so seeded values on mps differ from real ones.)
template <typename Fill>
Tensor make(IntArrayRef sizes, const TensorOptions& options, ScalarType default_dtype,
            std::string_view op, Origin origin, Fill&& fill) {
  const Device device = detail::check_device_usable(
      options.device_or_cpu(),
      origin == Origin::Kernel ? detail::Placement::Allocated : detail::Placement::Copied);
  Tensor t = detail::allocate(sizes.vec(), options.dtype_or(default_dtype), device);
  if (t.impl().has_values()) fill(t.impl());
  if (origin == Origin::Host && device.is_mps()) {
    detail::copy_between(Device(DeviceType::CPU), device, detail::nbytes(t));
  } else {
    const bool random = op == "aten::normal_" || op == "aten::uniform_";
    detail::launch({.name = op,
                    .kind = random ? detail::OpKind::Random : detail::OpKind::Elementwise,
                    .bytes = detail::nbytes(t),
                    .elements = static_cast<double>(t.numel()),
                    .dtype = t.scalar_type()},
                   device);
  }
  if (options.requires_grad()) {
    // A factory's requires_grad goes through AutogradMeta::set_requires_grad, whose message
    // differs from requires_grad_()'s.
    if (!is_floating_point(t.scalar_type()))
      throw Error("Only Tensors of floating point and complex dtype can require gradients");
    t.set_requires_grad(true);
  }
  return t;
}

void fill_value(TensorImpl& t, const Scalar& value) {
  detail::visit_dtype(t.dtype, [&](auto tag) {
    using T = decltype(tag);
    std::fill_n(t.data<T>(), t.numel(), detail::scalar_value<T>(value));
  });
}

// Random samples into `t`: the cpu's samplers in the cpu's dtype, bit for bit; on mps the
// engine's own generator draws in float32 and the values round into the dtype.
void fill_random(TensorImpl& t, bool normal) {
  detail::Process& p = detail::process();
  detail::CpuGenerator& gen = p.generator_for(t.device);
  if (t.dtype != ScalarType::Float && t.device.is_cpu()) {
    detail::visit_dtype(t.dtype, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, double> || detail::is_half_v<T>) {
        if (normal) {
          detail::fill_standard_normal(t.data<T>(), t.numel(), gen);
        } else {
          detail::fill_uniform(t.data<T>(), t.numel(), gen);
        }
      }
    });
    return;
  }
  std::vector<float> values(static_cast<std::size_t>(t.numel()));
  if (normal) {
    detail::fill_standard_normal(values.data(), t.numel(), gen, p.cpu_kernels());
  } else {
    detail::fill_uniform(values.data(), t.numel(), gen, 0.0, 1.0, p.cpu_kernels());
  }
  detail::visit_dtype(t.dtype, [&](auto tag) {
    using T = decltype(tag);
    std::transform(values.begin(), values.end(), t.data<T>(),
                   [](float v) { return detail::cast_value<T>(v); });
  });
}

// The samplers' dtype check, as the cpu kernel names itself: "normal_kernel_cpu" not implemented
// for 'Long', a NotImplementedError as AT_DISPATCH raises it.
void require_floating(const TensorOptions& options, const char* op) {
  const ScalarType dtype = options.dtype_or(ScalarType::Float);
  if (!is_floating_point(dtype)) {
    throw NotImplementedError(std::string("\"") + op + "\" not implemented for '" +
                              std::string(scalar_type_name(dtype)) + "'");
  }
}

// The values of a list as a 1-D tensor, or of a single value as a 0-dim one.
template <typename T>
Tensor from_list(std::initializer_list<T> values, const TensorOptions& options,
                 ScalarType default_dtype, bool scalar = false) {
  const std::vector<std::int64_t> sizes =
      scalar ? std::vector<std::int64_t>{}
             : std::vector<std::int64_t>{static_cast<std::int64_t>(values.size())};
  return make(sizes, options, default_dtype, "aten::tensor", Origin::Host, [&](TensorImpl& t) {
    std::int64_t i = 0;
    detail::visit_dtype(t.dtype, [&](auto tag) {
      using Stored = decltype(tag);
      for (T v : values) t.data<Stored>()[i++] = detail::cast_value<Stored>(v);
    });
  });
}

}  // namespace

Tensor zeros(IntArrayRef sizes, TensorOptions options) {
  return make(sizes, options, ScalarType::Float, "aten::zeros", Origin::Kernel,
              [](TensorImpl& t) { fill_value(t, 0); });
}

Tensor ones(IntArrayRef sizes, TensorOptions options) {
  return make(sizes, options, ScalarType::Float, "aten::ones", Origin::Kernel,
              [](TensorImpl& t) { fill_value(t, 1); });
}

// full's dtype, when the options name none, follows the value: a bool, an integer (int64) or a
// float (float32), as torch.full infers it.
Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions options) {
  const ScalarType inferred = value.isFloatingPoint() ? ScalarType::Float : value.type();
  return make(sizes, options, inferred, "aten::full", Origin::Kernel,
              [&](TensorImpl& t) { fill_value(t, value); });
}

Tensor randn(IntArrayRef sizes, TensorOptions options) {
  require_floating(options, "normal_kernel_cpu");
  return make(sizes, options, ScalarType::Float, "aten::normal_", Origin::Kernel,
              [](TensorImpl& t) { fill_random(t, true); });
}

Tensor rand(IntArrayRef sizes, TensorOptions options) {
  require_floating(options, "check_uniform_bounds");
  return make(sizes, options, ScalarType::Float, "aten::uniform_", Origin::Kernel,
              [](TensorImpl& t) { fill_random(t, false); });
}

Tensor arange(std::int64_t end, TensorOptions options) { return arange(0, end, 1, options); }

Tensor arange(std::int64_t start, std::int64_t end, std::int64_t step, TensorOptions options) {
  if (step == 0) throw Error("step must be nonzero");
  if ((step > 0 && start > end) || (step < 0 && start < end)) {
    throw Error("upper bound and larger bound inconsistent with step sign");
  }
  const std::int64_t count = (end - start + step - (step > 0 ? 1 : -1)) / step;
  return make({count}, options, ScalarType::Long, "aten::arange", Origin::Kernel,
              [&](TensorImpl& t) {
                detail::visit_dtype(t.dtype, [&](auto tag) {
                  using T = decltype(tag);
                  for (std::int64_t i = 0; i < count; ++i)
                    t.data<T>()[i] = detail::cast_value<T>(start + i * step);
                });
              });
}

Tensor tensor(double value, TensorOptions options) {
  return from_list({value}, options, ScalarType::Float, true);
}

Tensor tensor(std::int64_t value, TensorOptions options) {
  return from_list({value}, options, ScalarType::Long, true);
}

Tensor tensor(int value, TensorOptions options) {
  return tensor(static_cast<std::int64_t>(value), options);
}

Tensor tensor(std::initializer_list<double> values, TensorOptions options) {
  return from_list(values, options, ScalarType::Float);
}

Tensor tensor(std::initializer_list<float> values, TensorOptions options) {
  return from_list(values, options, ScalarType::Float);
}

Tensor tensor(std::initializer_list<int> values, TensorOptions options) {
  return from_list(values, options, ScalarType::Long);
}

Tensor tensor(std::initializer_list<std::int64_t> values, TensorOptions options) {
  return from_list(values, options, ScalarType::Long);
}
Tensor tensor(std::initializer_list<bool> values, TensorOptions options) {
  return from_list(values, options, ScalarType::Bool);
}

}  // namespace engine
