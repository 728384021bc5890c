// The cpu's matrix products: accurate (against a double-precision reference), and adding in the
// order Note [Summation order on the cpu] (engine/pytorch/src/kernels/kernels.h) fixes, bit for bit, on
// every shape: forward (matmul, linear with a bias) and the backward products of linear (one
// operand transposed).

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "engine/tensor.h"
#include "test_support.h"

using engine::Tensor;
using test_support::values;

namespace {

constexpr std::size_t kDepth = 256;  // the blocks of the cpu's order

// One result of a cpu product written out: `start` (zero, or the bias), plus each block of 256
// products, summed one after another with fused multiply-adds from zero.
float cpu_order_dot(const std::vector<float>& a, const std::vector<float>& b, float start = 0.0f) {
  float total = start;
  for (std::size_t block = 0; block < a.size(); block += kDepth) {
    float sum = 0.0f;
    for (std::size_t p = block; p < std::min(a.size(), block + kDepth); ++p)
      sum = std::fma(a[p], b[p], sum);
    total += sum;
  }
  return total;
}

std::vector<float> row(const std::vector<float>& m, std::int64_t cols, std::int64_t r) {
  return {m.begin() + r * cols, m.begin() + (r + 1) * cols};
}

std::vector<float> column(const std::vector<float>& m, std::int64_t rows, std::int64_t cols,
                          std::int64_t c) {
  std::vector<float> out(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r)
    out[static_cast<std::size_t>(r)] = m[static_cast<std::size_t>(r * cols + c)];
  return out;
}

// c = a b in double precision, row-major: a (m, k), b (k, n).
std::vector<double> reference(const std::vector<float>& a, const std::vector<float>& b,
                              std::int64_t m, std::int64_t k, std::int64_t n) {
  std::vector<double> c(static_cast<std::size_t>(m * n), 0.0);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::int64_t p = 0; p < k; ++p) sum += double(a[i * k + p]) * double(b[p * n + j]);
      c[static_cast<std::size_t>(i * n + j)] = sum;
    }
  }
  return c;
}

}  // namespace

TEST_CASE(
    "cpu products add in blocks of 256 with fused multiply-adds, bit for bit, on every shape") {
  engine::sim::restart();
  engine::manual_seed(0);
  // Shapes at the tile's edges (6 x 16) and across one, two and three blocks of the sum.
  for (const auto& shape : {std::array<std::int64_t, 3>{1, 1, 1},
                            {13, 255, 17},
                            {6, 256, 16},
                            {7, 600, 33},
                            {40, 1025, 5}}) {
    const std::int64_t m = shape[0], k = shape[1],
                       n = shape[2];  // not a binding: clang 14 cannot CAPTURE one
    CAPTURE(m);
    CAPTURE(k);
    CAPTURE(n);
    const Tensor a = engine::randn({m, k}), b = engine::randn({k, n}), bias = engine::randn({n});
    const std::vector<float> av = values(a), bv = values(b), biasv = values(bias);
    const std::vector<float> product = values(a.matmul(b));
    // linear(x, w, bias) = x w^T + bias, with w = b^T.
    const std::vector<float> linear =
        values(engine::nn::functional::linear(a, b.transpose(0, 1), bias));
    int mismatches = 0;
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        const std::vector<float> left = row(av, k, i), right = column(bv, k, n, j);
        const auto at = static_cast<std::size_t>(i * n + j);
        mismatches += product[at] != cpu_order_dot(left, right) ? 1 : 0;
        mismatches +=
            linear[at] != cpu_order_dot(left, right, biasv[static_cast<std::size_t>(j)]) ? 1 : 0;
      }
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("linear's backward products (one operand transposed) add in the same order") {
  engine::sim::restart();
  engine::manual_seed(1);
  const std::int64_t rows = 300, in = 20, out = 9;
  Tensor x = engine::randn({rows, in}), weight = engine::randn({out, in});
  x.requires_grad_();
  weight.requires_grad_();
  const Tensor y = engine::nn::functional::linear(x, weight);
  const Tensor g = engine::randn({rows, out});
  (y * g).sum().backward();
  // dx = g weight: each result sums `out` products; dweight = g^T x: each sums `rows` (two blocks).
  const std::vector<float> gv = values(g), wv = values(weight), xv = values(x);
  const std::vector<float> dx = values(x.grad()), dw = values(weight.grad());
  int mismatches = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < in; ++c) {
      mismatches += dx[static_cast<std::size_t>(r * in + c)] !=
                            cpu_order_dot(row(gv, out, r), column(wv, out, in, c))
                        ? 1
                        : 0;
    }
  }
  for (std::int64_t o = 0; o < out; ++o) {
    for (std::int64_t c = 0; c < in; ++c) {
      mismatches += dw[static_cast<std::size_t>(o * in + c)] !=
                            cpu_order_dot(column(gv, rows, out, o), column(xv, rows, in, c))
                        ? 1
                        : 0;
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("cpu products are accurate: within float rounding of a double-precision reference") {
  engine::sim::restart();
  engine::manual_seed(2);
  const std::int64_t m = 96, k = 700, n = 101;
  const Tensor a = engine::randn({m, k}), b = engine::randn({k, n});
  const std::vector<float> got = values(a.matmul(b));
  const std::vector<double> want = reference(values(a), values(b), m, k, n);
  double worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    worst = std::max(worst, std::abs(double(got[i]) - want[i]));
  CHECK(worst < 1e-4);  // sums of 700 products of size ~1: float rounding is ~1e-5
}
