// Elementwise arithmetic with PyTorch's broadcasting (aten/src/ATen/ExpandUtils.cpp) and
// device rules, and the gradients of each operation.

#include <algorithm>
#include <string>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/ops.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "ops/broadcast.h"
#include "tensor/device_checks.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

using kernels::BinaryOp;

const char* aten_name(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add:
      return "aten::add.Tensor";
    case BinaryOp::Sub:
      return "aten::sub.Tensor";
    case BinaryOp::Mul:
      return "aten::mul.Tensor";
    case BinaryOp::Div:
      return "aten::div.Tensor";
  }
  return "";
}

Tensor compute(BinaryOp op, const Tensor& a, const Tensor& b, Device device, const char* aten) {
  const std::vector<std::int64_t> shape = detail::broadcast_shape(a.sizes(), b.sizes());
  Tensor out = detail::allocate(shape, ScalarType::Float, device, detail::have_values({&a, &b}));
  if (out.impl().has_values()) {
    kernels::binary(op, a.impl().data<float>(), detail::broadcast_strides(a.sizes(), shape),
                    b.impl().data<float>(), detail::broadcast_strides(b.sizes(), shape),
                    out.impl().data<float>(), shape);
  }
  detail::launch({.name = aten,
                  .bytes = detail::nbytes(a) + detail::nbytes(b) + detail::nbytes(out),
                  .elements = static_cast<double>(out.numel())},
                 device);
  return out;
}

Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b, const char* op_name,
              const char* node_name) {
  const Device device = detail::check_all_same_device({}, {a, b}, detail::CpuScalars::Allowed);
  detail::require_float(a, op_name);
  detail::require_float(b, op_name);
  Tensor out = compute(op, a, b, device, aten_name(op));
  if (!detail::should_record({&a, &b})) return out;
  const std::vector<std::int64_t> a_shape = a.sizes().vec(), b_shape = b.sizes().vec();
  if (op == BinaryOp::Add || op == BinaryOp::Sub) {  // saves nothing but the shapes
    const bool subtract = op == BinaryOp::Sub;
    detail::record(
        out, node_name, {a, b},
        [a_shape, b_shape, subtract](const Tensor& g) {
          return std::vector<Tensor>{detail::sum_to(g, a_shape),
                                     detail::sum_to(subtract ? -g : g, b_shape)};
        },
        detail::Saves::NoTensors);
    return out;
  }
  detail::record(out, node_name, {a, b}, [op, a, b, a_shape, b_shape](const Tensor& g) {
    if (op == BinaryOp::Mul)
      return std::vector<Tensor>{detail::sum_to(g * b, a_shape), detail::sum_to(g * a, b_shape)};
    return std::vector<Tensor>{detail::sum_to(g / b, a_shape),
                               detail::sum_to(-(g * a) / (b * b), b_shape)};
  });
  return out;
}

// `saves`: Python wraps the scalar in a tensor, which mul and div save for their gradients;
// add, sub, rsub and neg save only scalars.
Tensor with_scalar(BinaryOp op, const Tensor& x, double scalar, bool scalar_first,
                   const char* node_name, detail::Saves saves) {
  detail::require_float(x, "arithmetic");
  Tensor out =
      detail::allocate(x.sizes().vec(), ScalarType::Float, x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) {
    kernels::binary_scalar(op, x.impl().data<float>(), static_cast<float>(scalar), scalar_first,
                           out.impl().data<float>(), x.numel());
  }
  detail::launch({.name = aten_name(op),
                  .bytes = 2 * detail::nbytes(x),
                  .elements = static_cast<double>(x.numel())},
                 x.device());
  if (!detail::should_record({&x})) return out;
  // Only `scalar / x` needs x back for its gradient; every other form saves nothing.
  const Tensor saved = op == BinaryOp::Div && scalar_first ? x : Tensor();
  detail::record(
      out, node_name, {x},
      [op, saved, scalar, scalar_first](const Tensor& g) {
        switch (op) {
          case BinaryOp::Add:
            return std::vector<Tensor>{g};
          case BinaryOp::Sub:
            return std::vector<Tensor>{scalar_first ? -g : g};
          case BinaryOp::Mul:
            return std::vector<Tensor>{g * scalar};
          case BinaryOp::Div:
            return std::vector<Tensor>{scalar_first ? -(g * scalar) / (saved * saved) : g / scalar};
        }
        return std::vector<Tensor>{};
      },
      saves);
  return out;
}

Tensor filled_like(const Tensor& t, double value) {
  Tensor out =
      detail::allocate(t.sizes().vec(), t.scalar_type(), t.device(), detail::have_values({&t}));
  if (out.impl().has_values()) {
    detail::visit_dtype(t.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      std::fill_n(out.impl().data<T>(), out.numel(), static_cast<T>(value));
    });
  }
  detail::launch({.name = "aten::fill_",
                  .bytes = detail::nbytes(out),
                  .elements = static_cast<double>(out.numel())},
                 t.device());
  return out;
}

}  // namespace

Tensor operator+(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Add, a, b, "add", "AddBackward0");
}
Tensor operator-(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Sub, a, b, "sub", "SubBackward0");
}
Tensor operator*(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Mul, a, b, "mul", "MulBackward0");
}
Tensor operator/(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Div, a, b, "div", "DivBackward0");
}
// Node names as Python shows them: `t * 2` is a Tensor op with a wrapped scalar (MulBackward0),
// `2 - t` is rsub (RsubBackward1), and `2 / t` is reciprocal(t) * 2 (MulBackward0).
constexpr detail::Saves kScalars = detail::Saves::NoTensors, kWrapped = detail::Saves::Tensors;
Tensor operator+(const Tensor& a, double b) {
  return with_scalar(BinaryOp::Add, a, b, false, "AddBackward0", kScalars);
}
Tensor operator-(const Tensor& a, double b) {
  return with_scalar(BinaryOp::Sub, a, b, false, "SubBackward0", kScalars);
}
Tensor operator*(const Tensor& a, double b) {
  return with_scalar(BinaryOp::Mul, a, b, false, "MulBackward0", kWrapped);
}
Tensor operator/(const Tensor& a, double b) {
  return with_scalar(BinaryOp::Div, a, b, false, "DivBackward0", kWrapped);
}
Tensor operator+(double a, const Tensor& b) {
  return with_scalar(BinaryOp::Add, b, a, true, "AddBackward0", kScalars);
}
Tensor operator-(double a, const Tensor& b) {
  return with_scalar(BinaryOp::Sub, b, a, true, "RsubBackward1", kScalars);
}
Tensor operator*(double a, const Tensor& b) {
  return with_scalar(BinaryOp::Mul, b, a, true, "MulBackward0", kWrapped);
}
Tensor operator/(double a, const Tensor& b) {
  return with_scalar(BinaryOp::Div, b, a, true, "MulBackward0", kWrapped);
}
Tensor operator-(const Tensor& a) {
  return with_scalar(BinaryOp::Mul, a, -1.0, false, "NegBackward0", kScalars);
}

namespace {

// A per-element function whose backward reads its result, not its input (relu's
// threshold_backward(grad, result, 0), tanh_backward(grad, result)): the node saves the result,
// so the input is freed once nothing else holds it.
struct ResultBackwardOp {
  const char* name;  // "relu", for the dtype check
  const char* kernel;
  detail::OpKind kind;
  void (*forward)(const float*, float*, std::int64_t);
  const char* node;
  const char* backward_kernel;
  void (*backward)(const float*, const float*, float*, std::int64_t);
};

Tensor with_result_backward(const ResultBackwardOp& op, const Tensor& x) {
  detail::require_float(x, op.name);
  Tensor out =
      detail::allocate(x.sizes().vec(), ScalarType::Float, x.device(), detail::have_values({&x}));
  if (out.impl().has_values())
    op.forward(x.impl().data<float>(), out.impl().data<float>(), x.numel());
  detail::launch({.name = op.kernel,
                  .kind = op.kind,
                  .bytes = 2 * detail::nbytes(x),
                  .elements = static_cast<double>(x.numel())},
                 x.device());
  if (!detail::should_record({&x})) return out;
  const Tensor saved = out.detach();
  detail::record(out, op.node, {x}, [op, saved](const Tensor& g) {
    Tensor grad = detail::allocate(saved.sizes().vec(), ScalarType::Float, g.device(),
                                   detail::have_values({&g, &saved}));
    if (grad.impl().has_values()) {
      op.backward(g.impl().data<float>(), saved.impl().data<float>(), grad.impl().data<float>(),
                  saved.numel());
    }
    detail::launch({.name = op.backward_kernel,
                    .bytes = 3 * detail::nbytes(saved),
                    .elements = static_cast<double>(saved.numel())},
                   g.device());
    return std::vector<Tensor>{grad};
  });
  return out;
}

}  // namespace

Tensor relu(const Tensor& x) {
  return with_result_backward({"relu", "aten::relu", detail::OpKind::Elementwise, kernels::relu,
                               "ReluBackward0", "aten::threshold_backward", kernels::relu_backward},
                              x);
}

// tanh and pow are priced as the cost model's per-element functions (core cycles on the cpu,
// MPSGraph on mps, as GELU is).
Tensor tanh(const Tensor& x) {
  return with_result_backward({"tanh", "aten::tanh", detail::OpKind::Transcendental, kernels::tanh,
                               "TanhBackward0", "aten::tanh_backward", kernels::tanh_backward},
                              x);
}

Tensor pow(const Tensor& x, double exponent) {
  detail::require_float(x, "pow");
  Tensor out =
      detail::allocate(x.sizes().vec(), ScalarType::Float, x.device(), detail::have_values({&x}));
  if (out.impl().has_values())
    kernels::pow_scalar(x.impl().data<float>(), exponent, out.impl().data<float>(), x.numel());
  detail::launch({.name = "aten::pow",
                  .kind = detail::OpKind::Transcendental,
                  .bytes = 2 * detail::nbytes(x),
                  .elements = static_cast<double>(x.numel())},
                 x.device());
  if (detail::should_record({&x})) {
    // pow_backward: grad * (exponent * x.pow(exponent - 1)), three kernels
    const Tensor saved = x.detach();
    detail::record(out, "PowBackward0", {x}, [saved, exponent](const Tensor& g) {
      if (exponent == 0) return std::vector<Tensor>{zeros_like(saved)};
      return std::vector<Tensor>{g * (exponent * pow(saved, exponent - 1))};
    });
  }
  return out;
}

Tensor zeros_like(const Tensor& t) { return filled_like(t, 0.0); }
Tensor ones_like(const Tensor& t) { return filled_like(t, 1.0); }

}  // namespace engine
