// Elementwise arithmetic (aten/src/ATen/native/BinaryOps.cpp) with PyTorch's broadcasting
// (ExpandUtils.cpp), type promotion (Note [Type promotion], engine/type_promotion.h) and device
// rules, and the gradients of each operation. A result computes in its compute type (Note [Half
// precision computes in float32]; integers in int64, wrapping when stored) and is rounded once.

#include <algorithm>
#include <string>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/ops.h"
#include "engine/type_promotion.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "ops/broadcast.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
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
    case BinaryOp::TruncDiv:
      return "aten::div.Tensor";
    case BinaryOp::FloorDiv:
      return "aten::floor_divide";
  }
  return "";
}

// sub_check and neg's check (BinaryOps.cpp, UnaryOps.cpp): bool tensors have no subtraction.
void check_subtraction(ScalarType a, ScalarType b) {
  if (a == ScalarType::Bool && b == ScalarType::Bool) {
    throw Error(
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
        "`logical_xor()` operator instead.");
  }
  if (a == ScalarType::Bool || b == ScalarType::Bool) {
    throw Error(
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
        "invert a mask, use the `~` or `logical_not()` operator instead.");
  }
}

// The dtype an operation returns: true division of integers and bools is float32 (the default
// dtype), every other operation its operands' promoted type.
ScalarType result_dtype(BinaryOp op, ScalarType promoted) {
  return op == BinaryOp::Div && !is_floating_point(promoted) ? ScalarType::Float : promoted;
}

// Integer division by zero is an error in PyTorch's cpu kernels (div_floor/div_trunc).
template <typename C>
void check_integer_divisor(BinaryOp op, const C* divisor, std::int64_t n) {
  if constexpr (std::is_same_v<C, std::int64_t>) {
    if (op != BinaryOp::FloorDiv && op != BinaryOp::TruncDiv) return;
    if (std::find(divisor, divisor + n, 0) != divisor + n) throw Error("ZeroDivisionError");
  }
}

Tensor compute(BinaryOp op, const Tensor& a, const Tensor& b, ScalarType dtype, Device device) {
  const std::vector<std::int64_t> shape = detail::broadcast_shape(a.sizes(), b.sizes());
  Tensor out = detail::allocate(shape, dtype, device, detail::have_values({&a, &b}));
  if (out.impl().has_values()) {
    detail::dispatch_compute(dtype, [&](auto tag) {
      using C = decltype(tag);
      const detail::ValuesAs<C> x(a), y(b);
      check_integer_divisor(op, y.data(), b.numel());
      detail::ResultAs<C> result(out);
      kernels::binary(op, x.data(), detail::broadcast_strides(a.sizes(), shape), y.data(),
                      detail::broadcast_strides(b.sizes(), shape), result.data(), shape);
      result.store();
    });
  }
  detail::launch({.name = aten_name(op),
                  .bytes = detail::nbytes(a) + detail::nbytes(b) + detail::nbytes(out),
                  .elements = static_cast<double>(out.numel()),
                  .dtype = dtype},
                 device);
  return out;
}

// A rounded division's gradient is zero wherever it exists (DivBackward2, as PyTorch names the
// node for either operand form); floor_divide has no derivative in PyTorch, and says so when
// backward reaches it.
void record_rounded_division(BinaryOp op, const Tensor& out, const std::vector<Tensor>& inputs) {
  if (op == BinaryOp::FloorDiv) {
    detail::record(
        out, "NotImplemented", inputs,
        [](const Tensor&) -> std::vector<Tensor> {
          throw Error("derivative for aten::floor_divide is not implemented");
        },
        detail::Saves::NoTensors);
    return;
  }
  std::vector<TensorOptions> options;
  std::vector<std::vector<std::int64_t>> shapes;
  for (const Tensor& t : inputs) {
    options.push_back(TensorOptions(t.scalar_type()).device(t.device()));
    shapes.push_back(t.sizes().vec());
  }
  detail::record(
      out, "DivBackward2", inputs,
      [options, shapes](const Tensor&) {
        std::vector<Tensor> grads;
        for (std::size_t i = 0; i < shapes.size(); ++i)
          grads.push_back(zeros(shapes[i], options[i]));
        return grads;
      },
      detail::Saves::NoTensors);
}

Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b, const char* node_name) {
  const Device device = detail::check_all_same_device({}, {a, b}, detail::CpuScalars::Allowed);
  if (op == BinaryOp::Sub) check_subtraction(a.scalar_type(), b.scalar_type());
  Tensor out = compute(op, a, b, result_dtype(op, result_type(a, b)), device);
  if (!detail::should_record({&a, &b}) || !is_floating_point(out.scalar_type())) return out;
  const std::vector<std::int64_t> a_shape = a.sizes().vec(), b_shape = b.sizes().vec();
  if (op == BinaryOp::FloorDiv || op == BinaryOp::TruncDiv) {
    record_rounded_division(op, out, {a, b});
    return out;
  }
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
Tensor with_scalar(BinaryOp op, const Tensor& x, const Scalar& scalar, bool scalar_first,
                   const char* node_name, detail::Saves saves) {
  if (op == BinaryOp::Sub) check_subtraction(x.scalar_type(), scalar.type());
  const ScalarType dtype = result_dtype(op, result_type(x, scalar));
  Tensor out = detail::allocate(x.sizes().vec(), dtype, x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) {
    detail::dispatch_compute(dtype, [&](auto tag) {
      using C = decltype(tag);
      const detail::ValuesAs<C> values(x);
      const C s = detail::scalar_value<C>(scalar);
      if (scalar_first) {
        check_integer_divisor(op, values.data(), x.numel());
      } else {
        check_integer_divisor(op, &s, 1);
      }
      detail::ResultAs<C> result(out);
      kernels::binary_scalar(op, values.data(), s, scalar_first, result.data(), x.numel());
      result.store();
    });
  }
  detail::launch({.name = aten_name(op),
                  .bytes = detail::nbytes(x) + detail::nbytes(out),
                  .elements = static_cast<double>(x.numel()),
                  .dtype = dtype},
                 x.device());
  if (!detail::should_record({&x}) || !is_floating_point(dtype)) return out;
  if (op == BinaryOp::FloorDiv || op == BinaryOp::TruncDiv) {
    record_rounded_division(op, out, {x});
    return out;
  }
  // Only `scalar / x` needs x back for its gradient; every other form saves nothing.
  const Tensor saved = op == BinaryOp::Div && scalar_first ? x : Tensor();
  const double value = scalar.toDouble();
  detail::record(
      out, node_name, {x},
      [op, saved, value, scalar_first](const Tensor& g) {
        if (op == BinaryOp::Add) return std::vector<Tensor>{g};
        if (op == BinaryOp::Sub) return std::vector<Tensor>{scalar_first ? -g : g};
        if (op == BinaryOp::Mul) return std::vector<Tensor>{g * value};
        return std::vector<Tensor>{scalar_first ? -(g * value) / (saved * saved) : g / value};
      },
      saves);
  return out;
}

// div's rounding_mode: none (true division), "trunc" or "floor" (BinaryOps.cpp).
BinaryOp division(std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) return BinaryOp::Div;
  if (*rounding_mode == "trunc") return BinaryOp::TruncDiv;
  if (*rounding_mode == "floor") return BinaryOp::FloorDiv;
  throw Error("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" +
              std::string(*rounding_mode) + "'");
}

}  // namespace

Tensor operator+(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Add, a, b, "AddBackward0");
}
Tensor operator-(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Sub, a, b, "SubBackward0");
}
Tensor operator*(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Mul, a, b, "MulBackward0");
}
Tensor operator/(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::Div, a, b, "DivBackward0");
}
Tensor div(const Tensor& a, const Tensor& b, std::optional<std::string_view> rounding_mode) {
  const BinaryOp op = division(rounding_mode);
  return binary(op, a, b, "DivBackward0");
}
Tensor floor_divide(const Tensor& a, const Tensor& b) {
  return binary(BinaryOp::FloorDiv, a, b, "NotImplemented");
}

// Node names as Python shows them: `t * 2` is a Tensor op with a wrapped scalar (MulBackward0),
// `2 - t` is rsub (RsubBackward1), and `2 / t` is reciprocal(t) * 2 (MulBackward0).
constexpr detail::Saves kScalars = detail::Saves::NoTensors, kWrapped = detail::Saves::Tensors;
Tensor operator+(const Tensor& a, const Scalar& b) {
  return with_scalar(BinaryOp::Add, a, b, false, "AddBackward0", kScalars);
}
Tensor operator-(const Tensor& a, const Scalar& b) {
  return with_scalar(BinaryOp::Sub, a, b, false, "SubBackward0", kScalars);
}
Tensor operator*(const Tensor& a, const Scalar& b) {
  return with_scalar(BinaryOp::Mul, a, b, false, "MulBackward0", kWrapped);
}
Tensor operator/(const Tensor& a, const Scalar& b) {
  return with_scalar(BinaryOp::Div, a, b, false, "DivBackward0", kWrapped);
}
Tensor operator+(const Scalar& a, const Tensor& b) {
  return with_scalar(BinaryOp::Add, b, a, true, "AddBackward0", kScalars);
}
Tensor operator-(const Scalar& a, const Tensor& b) {
  return with_scalar(BinaryOp::Sub, b, a, true, "RsubBackward1", kScalars);
}
Tensor operator*(const Scalar& a, const Tensor& b) {
  return with_scalar(BinaryOp::Mul, b, a, true, "MulBackward0", kWrapped);
}
Tensor operator/(const Scalar& a, const Tensor& b) {
  return with_scalar(BinaryOp::Div, b, a, true, "MulBackward0", kWrapped);
}
Tensor div(const Tensor& a, const Scalar& b, std::optional<std::string_view> rounding_mode) {
  const BinaryOp op = division(rounding_mode);
  return with_scalar(op, a, b, false, "DivBackward0", kWrapped);
}
Tensor floor_divide(const Tensor& a, const Scalar& b) {
  return with_scalar(BinaryOp::FloorDiv, a, b, false, "NotImplemented", kWrapped);
}

Tensor operator-(const Tensor& a) {
  if (a.scalar_type() == ScalarType::Bool) {
    throw Error(
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
        "invert a mask, use the `~` or `logical_not()` operator instead.");
  }
  return with_scalar(BinaryOp::Mul, a, a.is_floating_point() ? Scalar(-1.0) : Scalar(-1), false,
                     "NegBackward0", kScalars);
}

}  // namespace engine
