#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>

#include "kernels/kernels.h"
#include "kernels/portable_math.h"

namespace engine::kernels {
namespace {

template <typename T, typename R, typename F>
void broadcast_apply(F f, const T* a, const std::vector<std::int64_t>& a_strides, const T* b,
                     const std::vector<std::int64_t>& b_strides, R* out,
                     const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  if (n == 0) return;
  const std::size_t rank = shape.size();
  std::vector<std::int64_t> index(rank, 0);
  std::int64_t ia = 0, ib = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    out[i] = f(a[ia], b[ib]);
    for (std::size_t d = rank; d-- > 0;) {  // advance the odometer, moving both offsets along
      ia += a_strides[d];
      ib += b_strides[d];
      if (++index[d] < shape[d]) break;
      ia -= a_strides[d] * shape[d];
      ib -= b_strides[d] * shape[d];
      index[d] = 0;
    }
  }
}

// ATen's div_floor_floating (aten/src/ATen/native/BinaryOps.h): fmod and floor are exact, so
// every host rounds alike.
template <typename T>
T floor_divide(T x, T y) {
  if (y == 0) return x / y;
  const T mod = std::fmod(x, y);
  T quotient = (x - mod) / y;
  if (mod != 0 && (y < 0) != (mod < 0)) quotient -= T(1);
  if (quotient == 0) return std::copysign(T(0), x / y);
  T floored = std::floor(quotient);
  if (quotient - floored > T(0.5)) floored += T(1);
  return floored;
}

// Integer arithmetic wraps around, as PyTorch's does: computed on the unsigned bits, where
// C++ defines it. Division by zero is refused before a kernel runs (ZeroDivisionError).
std::int64_t wrap(std::uint64_t bits) { return static_cast<std::int64_t>(bits); }
std::uint64_t bits(std::int64_t value) { return static_cast<std::uint64_t>(value); }

std::int64_t truncate_divide(std::int64_t x, std::int64_t y) {
  return y == -1 ? wrap(0 - bits(x)) : x / y;  // INT64_MIN / -1 wraps
}

// div_floor_integer: truncation, one less when the signs differ and something remains.
std::int64_t floor_divide(std::int64_t x, std::int64_t y) {
  const std::int64_t quotient = truncate_divide(x, y);
  const bool remainder = y != -1 && x % y != 0;
  return ((x < 0) != (y < 0)) && remainder ? quotient - 1 : quotient;
}

template <typename T, typename F>
void dispatch(BinaryOp op, F&& run) {
  if constexpr (std::is_same_v<T, bool>) {
    // Promotion sends bool subtraction and division elsewhere: or and and are all there is.
    if (op == BinaryOp::Mul) return run([](bool x, bool y) { return x && y; });
    return run([](bool x, bool y) { return x || y; });
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    switch (op) {
      case BinaryOp::Add:
        return run([](std::int64_t x, std::int64_t y) { return wrap(bits(x) + bits(y)); });
      case BinaryOp::Sub:
        return run([](std::int64_t x, std::int64_t y) { return wrap(bits(x) - bits(y)); });
      case BinaryOp::Mul:
        return run([](std::int64_t x, std::int64_t y) { return wrap(bits(x) * bits(y)); });
      case BinaryOp::Div:
      case BinaryOp::TruncDiv:
        return run([](std::int64_t x, std::int64_t y) { return truncate_divide(x, y); });
      case BinaryOp::FloorDiv:
        return run([](std::int64_t x, std::int64_t y) { return floor_divide(x, y); });
    }
  } else {
    switch (op) {
      case BinaryOp::Add:
        return run([](T x, T y) { return x + y; });
      case BinaryOp::Sub:
        return run([](T x, T y) { return x - y; });
      case BinaryOp::Mul:
        return run([](T x, T y) { return x * y; });
      case BinaryOp::Div:
        return run([](T x, T y) { return x / y; });
      case BinaryOp::FloorDiv:
        return run([](T x, T y) { return floor_divide(x, y); });
      case BinaryOp::TruncDiv:
        return run([](T x, T y) { return std::trunc(x / y); });
    }
  }
}

template <typename F>
void dispatch_compare(CompareOp op, F&& run) {
  switch (op) {
    case CompareOp::Eq:
      return run([](auto x, auto y) { return x == y; });
    case CompareOp::Ne:
      return run([](auto x, auto y) { return x != y; });
    case CompareOp::Lt:
      return run([](auto x, auto y) { return x < y; });
    case CompareOp::Le:
      return run([](auto x, auto y) { return x <= y; });
    case CompareOp::Gt:
      return run([](auto x, auto y) { return x > y; });
    case CompareOp::Ge:
      return run([](auto x, auto y) { return x >= y; });
  }
}

}  // namespace

template <typename T>
void binary(BinaryOp op, const T* a, const std::vector<std::int64_t>& a_strides, const T* b,
            const std::vector<std::int64_t>& b_strides, T* out,
            const std::vector<std::int64_t>& out_shape) {
  dispatch<T>(op, [&](auto f) { broadcast_apply(f, a, a_strides, b, b_strides, out, out_shape); });
}

template <typename T>
void binary_scalar(BinaryOp op, const T* x, T scalar, bool scalar_first, T* out, std::int64_t n) {
  dispatch<T>(op, [&](auto f) {
    for (std::int64_t i = 0; i < n; ++i) out[i] = scalar_first ? f(scalar, x[i]) : f(x[i], scalar);
  });
}

template <typename T>
void compare(CompareOp op, const T* a, const std::vector<std::int64_t>& a_strides, const T* b,
             const std::vector<std::int64_t>& b_strides, bool* out,
             const std::vector<std::int64_t>& out_shape) {
  dispatch_compare(op, [&](auto f) {
    broadcast_apply([&f](T x, T y) -> bool { return f(x, y); }, a, a_strides, b, b_strides, out,
                    out_shape);
  });
}

#define TUTOR_ELEMENTWISE_KERNELS(T)                                                               \
  template void binary<T>(BinaryOp, const T*, const std::vector<std::int64_t>&, const T*,          \
                          const std::vector<std::int64_t>&, T*, const std::vector<std::int64_t>&); \
  template void binary_scalar<T>(BinaryOp, const T*, T, bool, T*, std::int64_t);                   \
  template void compare<T>(CompareOp, const T*, const std::vector<std::int64_t>&, const T*,        \
                           const std::vector<std::int64_t>&, bool*,                                \
                           const std::vector<std::int64_t>&);
TUTOR_ELEMENTWISE_KERNELS(float)
TUTOR_ELEMENTWISE_KERNELS(double)
TUTOR_ELEMENTWISE_KERNELS(std::int64_t)
TUTOR_ELEMENTWISE_KERNELS(bool)
#undef TUTOR_ELEMENTWISE_KERNELS

template <typename T>
void relu(const T* x, T* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = std::max(x[i], T(0));
}

template <typename T>
void relu_backward(const T* grad, const T* result, T* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = result[i] > T(0) ? grad[i] : T(0);
}

template <typename T>
void tanh(const T* x, T* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const double a = std::abs(static_cast<double>(x[i]));
    double t = 1.0;  // tanh(20) rounds to 1 in float
    if (a < 1e-4)
      t = a - a * a * a / 3;  // the series: exp's form below would cancel
    else if (a < 20)
      t = 1 - 2 / (portable::exp(2 * a) + 1);
    out[i] = static_cast<T>(x[i] < 0 ? -t : t);
  }
}

template <typename T>
void tanh_backward(const T* grad, const T* result, T* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = grad[i] * (T(1) - result[i] * result[i]);
}

template <typename T>
void pow_scalar(const T* x, double exponent, T* out, std::int64_t n) {
  const bool whole = exponent == std::floor(exponent) && std::abs(exponent) <= 64;
  const auto times = static_cast<std::int64_t>(std::abs(exponent));
  for (std::int64_t i = 0; i < n; ++i) {
    if (whole) {
      T p = times == 0 ? T(1) : x[i];
      for (std::int64_t k = 1; k < times; ++k) p *= x[i];
      out[i] = exponent < 0 ? T(1) / p : p;
    } else if (exponent == 0.5) {
      out[i] = std::sqrt(x[i]);
    } else if (x[i] > 0) {
      out[i] = static_cast<T>(portable::exp(exponent * portable::log(static_cast<double>(x[i]))));
    } else {
      out[i] = x[i] == 0 ? (exponent > 0 ? T(0) : std::numeric_limits<T>::infinity())
                         : std::numeric_limits<T>::quiet_NaN();
    }
  }
}

#define TUTOR_FLOATING_KERNELS(T)                                       \
  template void relu<T>(const T*, T*, std::int64_t);                    \
  template void relu_backward<T>(const T*, const T*, T*, std::int64_t); \
  template void tanh<T>(const T*, T*, std::int64_t);                    \
  template void tanh_backward<T>(const T*, const T*, T*, std::int64_t); \
  template void pow_scalar<T>(const T*, double, T*, std::int64_t);
TUTOR_FLOATING_KERNELS(float)
TUTOR_FLOATING_KERNELS(double)
#undef TUTOR_FLOATING_KERNELS

constexpr auto kInvSqrt2 = static_cast<float>(1.0 / std::numbers::sqrt2);
constexpr auto kInvSqrt2Pi = static_cast<float>(std::numbers::inv_sqrtpi / std::numbers::sqrt2);

void gelu(const float* x, float* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    out[i] = 0.5f * x[i] * (1.0f + portable::erf(x[i] * kInvSqrt2));
}

void gelu_backward(const float* grad, const float* x, float* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const float cdf = 0.5f * (1.0f + portable::erf(x[i] * kInvSqrt2));
    const float pdf = kInvSqrt2Pi * portable::expf(-0.5f * x[i] * x[i]);
    out[i] = grad[i] * (cdf + x[i] * pdf);
  }
}

}  // namespace engine::kernels
