#include "engine/factories.h"

#include <algorithm>
#include <string>

#include "availability.h"
#include "engine/errors.h"
#include "process.h"
#include "random/samplers.h"
#include "tensor_impl.h"

namespace engine {
namespace {

// Values are produced on the cpu and then placed, as PyTorch's MPS factories fill on the
// device; the placement check runs first so an unusable device fails before any work.
template <typename Fill>
Tensor make(IntArrayRef sizes, const TensorOptions& options, ScalarType default_dtype,
            Fill&& fill) {
  const Device device = detail::check_device_usable(options.device_or_cpu());
  Tensor t = detail::allocate(sizes.vec(), options.dtype_or(default_dtype), device);
  fill(t.impl());
  return t;
}

void fill_value(TensorImpl& t, double value) {
  if (t.dtype == ScalarType::Float) {
    std::fill_n(t.data<float>(), t.numel(), static_cast<float>(value));
  } else {
    std::fill_n(t.data<std::int64_t>(), t.numel(), static_cast<std::int64_t>(value));
  }
}

void require_floating(const TensorOptions& options, const char* op) {
  const ScalarType dtype = options.dtype_or(ScalarType::Float);
  if (!is_floating_point(dtype)) {
    throw Error(std::string("\"") + op + "\" not implemented for '" +
                std::string(scalar_type_name(dtype)) + "'");
  }
}

template <typename T>
Tensor from_list(std::initializer_list<T> values, const TensorOptions& options,
                 ScalarType default_dtype) {
  return make({static_cast<std::int64_t>(values.size())}, options, default_dtype,
              [&](TensorImpl& t) {
                std::int64_t i = 0;
                for (T v : values) {
                  if (t.dtype == ScalarType::Float) {
                    t.data<float>()[i++] = static_cast<float>(v);
                  } else {
                    t.data<std::int64_t>()[i++] = static_cast<std::int64_t>(v);
                  }
                }
              });
}

}  // namespace

Tensor zeros(IntArrayRef sizes, TensorOptions options) {
  return make(sizes, options, ScalarType::Float, [](TensorImpl& t) { fill_value(t, 0); });
}

Tensor ones(IntArrayRef sizes, TensorOptions options) {
  return make(sizes, options, ScalarType::Float, [](TensorImpl& t) { fill_value(t, 1); });
}

Tensor full(IntArrayRef sizes, double value, TensorOptions options) {
  return make(sizes, options, ScalarType::Float, [&](TensorImpl& t) { fill_value(t, value); });
}

Tensor randn(IntArrayRef sizes, TensorOptions options) {
  require_floating(options, "normal_kernel_cpu");
  return make(sizes, options, ScalarType::Float, [](TensorImpl& t) {
    detail::Process& p = detail::process();
    detail::fill_standard_normal(t.data<float>(), t.numel(), p.cpu_generator, p.cpu_kernels());
  });
}

Tensor rand(IntArrayRef sizes, TensorOptions options) {
  require_floating(options, "check_uniform_bounds");
  return make(sizes, options, ScalarType::Float, [](TensorImpl& t) {
    detail::Process& p = detail::process();
    detail::fill_uniform(t.data<float>(), t.numel(), p.cpu_generator, 0.0, 1.0, p.cpu_kernels());
  });
}

Tensor arange(std::int64_t end, TensorOptions options) { return arange(0, end, 1, options); }

Tensor arange(std::int64_t start, std::int64_t end, std::int64_t step, TensorOptions options) {
  if (step == 0) throw Error("step must be nonzero");
  if ((step > 0 && start > end) || (step < 0 && start < end)) {
    throw Error("upper bound and larger bound inconsistent with step sign");
  }
  const std::int64_t count = (end - start + step - (step > 0 ? 1 : -1)) / step;
  return make({count}, options, ScalarType::Long, [&](TensorImpl& t) {
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int64_t v = start + i * step;
      if (t.dtype == ScalarType::Float) {
        t.data<float>()[i] = static_cast<float>(v);
      } else {
        t.data<std::int64_t>()[i] = v;
      }
    }
  });
}

Tensor tensor(double value, TensorOptions options) {
  return from_list({value}, options, ScalarType::Float).reshape({});
}

Tensor tensor(std::int64_t value, TensorOptions options) {
  return from_list({value}, options, ScalarType::Long).reshape({});
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

}  // namespace engine
