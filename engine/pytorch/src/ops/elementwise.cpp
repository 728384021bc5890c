// Per-element functions (aten/src/ATen/native/UnaryOps.cpp, Activation.cpp, Pow.cpp) and their
// gradients, for every dtype PyTorch computes them in: relu keeps integers, tanh turns them into
// float32 (a "unary float" op), pow keeps integers for a whole exponent. Floating inputs compute
// in float32 or float64 (Note [Half precision computes in float32]).

#include <algorithm>
#include <cmath>
#include <string>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/ops.h"
#include "engine/type_promotion.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// A per-element function whose backward reads its result, not its input (relu's
// threshold_backward(grad, result, 0), tanh_backward(grad, result)): the node saves the result,
// so the input is freed once nothing else holds it.
struct ResultBackwardOp {
  const char* kernel;
  detail::OpKind kind;
  void (*forward)(const float*, float*, std::int64_t);
  void (*forward64)(const double*, double*, std::int64_t);
  const char* node;
  const char* backward_kernel;
  void (*backward)(const float*, const float*, float*, std::int64_t);
  void (*backward64)(const double*, const double*, double*, std::int64_t);
};

template <typename C>
void run_forward(const ResultBackwardOp& op, const Tensor& x, const Tensor& out) {
  const detail::ValuesAs<C> in(x);
  detail::ResultAs<C> result(out);
  if constexpr (std::is_same_v<C, double>) {
    op.forward64(in.data(), result.data(), x.numel());
  } else {
    op.forward(in.data(), result.data(), x.numel());
  }
  result.store();
}

Tensor backward_of(const ResultBackwardOp& op, const Tensor& g, const Tensor& saved) {
  Tensor grad = detail::allocate(saved.sizes().vec(), saved.scalar_type(), g.device(),
                                 detail::have_values({&g, &saved}));
  if (grad.impl().has_values()) {
    detail::dispatch_compute(saved.scalar_type(), [&](auto tag) {
      using C = decltype(tag);
      if constexpr (std::is_floating_point_v<C>) {
        const detail::ValuesAs<C> gv(g), sv(saved);
        detail::ResultAs<C> result(grad);
        if constexpr (std::is_same_v<C, double>) {
          op.backward64(gv.data(), sv.data(), result.data(), saved.numel());
        } else {
          op.backward(gv.data(), sv.data(), result.data(), saved.numel());
        }
        result.store();
      }
    });
  }
  detail::launch({.name = op.backward_kernel,
                  .bytes = 3 * detail::nbytes(saved),
                  .elements = static_cast<double>(saved.numel()),
                  .dtype = saved.scalar_type()},
                 g.device());
  return grad;
}

// `dtype`: the result's, which an integer input may not keep (tanh's float32).
Tensor with_result_backward(const ResultBackwardOp& op, const Tensor& x, ScalarType dtype) {
  Tensor out = detail::allocate(x.sizes().vec(), dtype, x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) {
    if (dtype == ScalarType::Double) {
      run_forward<double>(op, x, out);
    } else {
      run_forward<float>(op, x, out);
    }
  }
  detail::launch({.name = op.kernel,
                  .kind = op.kind,
                  .bytes = detail::nbytes(x) + detail::nbytes(out),
                  .elements = static_cast<double>(x.numel()),
                  .dtype = dtype},
                 x.device());
  if (!detail::should_record({&x})) return out;
  const Tensor saved = out.detach();
  detail::record(out, op.node, {x}, [op, saved](const Tensor& g) {
    return std::vector<Tensor>{backward_of(op, g, saved)};
  });
  return out;
}

constexpr ResultBackwardOp kRelu{"aten::relu",
                                 detail::OpKind::Elementwise,
                                 kernels::relu<float>,
                                 kernels::relu<double>,
                                 "ReluBackward0",
                                 "aten::threshold_backward",
                                 kernels::relu_backward<float>,
                                 kernels::relu_backward<double>};
// tanh and pow are priced as the cost model's per-element functions (core cycles on the cpu,
// MPSGraph on mps, as GELU is).
constexpr ResultBackwardOp kTanh{"aten::tanh",
                                 detail::OpKind::Transcendental,
                                 kernels::tanh<float>,
                                 kernels::tanh<double>,
                                 "TanhBackward0",
                                 "aten::tanh_backward",
                                 kernels::tanh_backward<float>,
                                 kernels::tanh_backward<double>};

// relu of an integer tensor: clamp_min(x, 0) in its own type; nothing to differentiate.
Tensor integer_relu(const Tensor& x) {
  Tensor out =
      detail::allocate(x.sizes().vec(), x.scalar_type(), x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) {
    detail::visit_dtype(x.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_integral_v<T>) {
        const T* in = x.impl().data<T>();
        T* result = out.impl().data<T>();
        for (std::int64_t i = 0; i < x.numel(); ++i) result[i] = std::max(in[i], T{0});
      }
    });
  }
  detail::launch({.name = "aten::relu",
                  .bytes = 2 * detail::nbytes(x),
                  .elements = static_cast<double>(x.numel()),
                  .dtype = x.scalar_type()},
                 x.device());
  return out;
}

// An integer tensor to a whole, non-negative power, by repeated multiplication that wraps.
Tensor integer_pow(const Tensor& x, std::int64_t exponent, ScalarType dtype) {
  if (exponent < 0) throw Error("Integers to negative integer powers are not allowed.");
  Tensor out = detail::allocate(x.sizes().vec(), dtype, x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) {
    const detail::ValuesAs<std::int64_t> in(x);
    detail::ResultAs<std::int64_t> result(out);
    for (std::int64_t i = 0; i < x.numel(); ++i) {
      std::uint64_t p = 1;
      for (std::int64_t k = 0; k < exponent; ++k) p *= static_cast<std::uint64_t>(in.data()[i]);
      result.data()[i] = static_cast<std::int64_t>(p);
    }
    result.store();
  }
  return out;
}

}  // namespace

Tensor relu(const Tensor& x) {
  if (x.scalar_type() == ScalarType::Bool) throw Error("Boolean inputs not supported for relu");
  if (!x.is_floating_point()) return integer_relu(x);
  return with_result_backward(kRelu, x, x.scalar_type());
}

Tensor tanh(const Tensor& x) {
  return with_result_backward(kTanh, x,
                              x.is_floating_point() ? x.scalar_type() : ScalarType::Float);
}

Tensor pow(const Tensor& x, const Scalar& exponent) {
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::Pow, {x})) {
    const detail::AutocastExclusion exclusion(cast->device);
    return pow(cast->inputs[0], exponent);
  }
  const ScalarType dtype = result_type(x, exponent);
  const bool values = detail::have_values({&x});
  Tensor out;
  if (!is_floating_point(dtype)) {
    out = integer_pow(x, exponent.toLong(), dtype);
  } else {
    out = detail::allocate(x.sizes().vec(), dtype, x.device(), values);
    if (values) {
      detail::dispatch_floating(dtype, "pow", detail::Float64::Computed, [&](auto tag) {
        using C = decltype(tag);
        const detail::ValuesAs<C> in(x);
        detail::ResultAs<C> result(out);
        kernels::pow_scalar(in.data(), exponent.toDouble(), result.data(), x.numel());
        result.store();
      });
    }
  }
  detail::launch({.name = "aten::pow",
                  .kind = detail::OpKind::Transcendental,
                  .bytes = detail::nbytes(x) + detail::nbytes(out),
                  .elements = static_cast<double>(x.numel()),
                  .dtype = dtype},
                 x.device());
  if (detail::should_record({&x}) && is_floating_point(dtype)) {
    // pow_backward: grad * (exponent * x.pow(exponent - 1)), three kernels
    const Tensor saved = x.detach();
    const double e = exponent.toDouble();
    detail::record(out, "PowBackward0", {x}, [saved, e](const Tensor& g) {
      if (e == 0) return std::vector<Tensor>{zeros_like(saved)};
      return std::vector<Tensor>{g * (e * pow(saved, e - 1))};
    });
  }
  return out;
}

Tensor zeros_like(const Tensor& t) { return full_like(t, 0); }
Tensor ones_like(const Tensor& t) { return full_like(t, 1); }

Tensor full_like(const Tensor& t, const Scalar& value) {
  Tensor out =
      detail::allocate(t.sizes().vec(), t.scalar_type(), t.device(), detail::have_values({&t}));
  if (out.impl().has_values()) {
    detail::visit_dtype(t.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      std::fill_n(out.impl().data<T>(), out.numel(), detail::scalar_value<T>(value));
    });
  }
  detail::launch({.name = "aten::fill_",
                  .bytes = detail::nbytes(out),
                  .elements = static_cast<double>(out.numel()),
                  .dtype = t.scalar_type()},
                 t.device());
  return out;
}

}  // namespace engine
