#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "kernels/kernels.h"
#include "kernels/portable_math.h"

namespace engine::kernels {
namespace {

template <typename F>
void broadcast_apply(F f, const float* a, const std::vector<std::int64_t>& a_strides,
                     const float* b, const std::vector<std::int64_t>& b_strides, float* out,
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

template <typename F>
void dispatch(BinaryOp op, F&& run) {
  switch (op) {
    case BinaryOp::Add:
      return run([](float x, float y) { return x + y; });
    case BinaryOp::Sub:
      return run([](float x, float y) { return x - y; });
    case BinaryOp::Mul:
      return run([](float x, float y) { return x * y; });
    case BinaryOp::Div:
      return run([](float x, float y) { return x / y; });
  }
}

}  // namespace

void binary(BinaryOp op, const float* a, const std::vector<std::int64_t>& a_strides, const float* b,
            const std::vector<std::int64_t>& b_strides, float* out,
            const std::vector<std::int64_t>& out_shape) {
  dispatch(op, [&](auto f) { broadcast_apply(f, a, a_strides, b, b_strides, out, out_shape); });
}

void binary_scalar(BinaryOp op, const float* x, float scalar, bool scalar_first, float* out,
                   std::int64_t n) {
  dispatch(op, [&](auto f) {
    for (std::int64_t i = 0; i < n; ++i) out[i] = scalar_first ? f(scalar, x[i]) : f(x[i], scalar);
  });
}

void relu(const float* x, float* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = std::max(x[i], 0.0f);
}

void relu_backward(const float* grad, const float* result, float* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = result[i] > 0.0f ? grad[i] : 0.0f;
}

void tanh(const float* x, float* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const double a = std::abs(static_cast<double>(x[i]));
    double t = 1.0;  // tanh(20) rounds to 1 in float
    if (a < 1e-4)
      t = a - a * a * a / 3;  // the series: exp's form below would cancel
    else if (a < 20)
      t = 1 - 2 / (portable::exp(2 * a) + 1);
    out[i] = static_cast<float>(x[i] < 0 ? -t : t);
  }
}

void tanh_backward(const float* grad, const float* result, float* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = grad[i] * (1.0f - result[i] * result[i]);
}

void pow_scalar(const float* x, double exponent, float* out, std::int64_t n) {
  const bool whole = exponent == std::floor(exponent) && std::abs(exponent) <= 64;
  const auto times = static_cast<std::int64_t>(std::abs(exponent));
  for (std::int64_t i = 0; i < n; ++i) {
    if (whole) {
      float p = times == 0 ? 1.0f : x[i];
      for (std::int64_t k = 1; k < times; ++k) p *= x[i];
      out[i] = exponent < 0 ? 1.0f / p : p;
    } else if (exponent == 0.5) {
      out[i] = std::sqrt(x[i]);
    } else if (x[i] > 0) {
      out[i] = static_cast<float>(portable::exp(exponent * portable::log(x[i])));
    } else {
      out[i] = x[i] == 0 ? (exponent > 0 ? 0.0f : std::numeric_limits<float>::infinity())
                         : std::numeric_limits<float>::quiet_NaN();
    }
  }
}

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
