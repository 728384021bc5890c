// The matrix products against a plain reference, on both sides of the size where the engine
// moves from Eigen to the system's BLAS: forward (matmul, linear with a bias) and the backward
// products (a transposed operand) of linear.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "engine/tensor.h"

namespace {

// c = a b in double precision, row-major: a (m, k), b (k, n).
std::vector<double> reference(const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n,
                              bool b_transposed = false) {
  std::vector<double> c(static_cast<std::size_t>(m * n), 0.0);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::int64_t p = 0; p < k; ++p) sum += double(a[i * k + p]) * double(b_transposed ? b[j * k + p] : b[p * n + j]);
      c[static_cast<std::size_t>(i * n + j)] = sum;
    }
  }
  return c;
}

double max_error(const engine::Tensor& got, const std::vector<double>& want) {
  const float* g = got.data_ptr<float>();
  double worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(double(g[i]) - want[i]));
  return worst;
}

}  // namespace

TEST_CASE("matmul and linear match a double-precision reference below and above the BLAS threshold") {
  engine::sim::restart();
  engine::manual_seed(0);
  for (const std::int64_t size : {6, 96}) {  // 6^3 runs on Eigen, 96^3 on the BLAS
    CAPTURE(size);
    const std::int64_t m = size, k = size + 3, n = size + 5;
    const engine::Tensor a = engine::randn({m, k}), b = engine::randn({k, n});
    CHECK(max_error(a.matmul(b), reference(a.data_ptr<float>(), b.data_ptr<float>(), m, k, n)) < 1e-4);

    const engine::Tensor weight = engine::randn({n, k}), bias = engine::randn({n});
    const engine::Tensor y = engine::nn::functional::linear(a, weight, bias);
    std::vector<double> want = reference(a.data_ptr<float>(), weight.data_ptr<float>(), m, k, n, true);
    for (std::int64_t i = 0; i < m * n; ++i) want[static_cast<std::size_t>(i)] += bias.data_ptr<float>()[i % n];
    CHECK(max_error(y, want) < 1e-4);
  }
}

TEST_CASE("linear's backward products (one operand transposed) match the reference above the BLAS threshold") {
  engine::sim::restart();
  engine::manual_seed(1);
  const std::int64_t rows = 90, in = 70, out = 80;
  engine::Tensor x = engine::randn({rows, in}), weight = engine::randn({out, in});
  x.requires_grad_();
  weight.requires_grad_();
  engine::nn::functional::linear(x, weight).sum().backward();
  // d(sum)/dx = ones (rows, out) weight; d(sum)/dweight = ones^T x: every row the column sums.
  std::vector<float> ones(static_cast<std::size_t>(rows * out), 1.0f);
  CHECK(max_error(x.grad(), reference(ones.data(), weight.data_ptr<float>(), rows, out, in)) < 1e-3);
  std::vector<float> ones_t(static_cast<std::size_t>(out * rows), 1.0f);
  CHECK(max_error(weight.grad(), reference(ones_t.data(), x.data_ptr<float>(), out, rows, in)) < 1e-3);
}
