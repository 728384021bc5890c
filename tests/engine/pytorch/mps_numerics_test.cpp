// The mps device adds in its own order (Note [Summation order on mps], engine/pytorch/src/kernels/
// mps_kernels.h): its sums and products differ from the cpu's in the last bits, as a real Mac's
// do, and torch.allclose is how to compare them.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/autograd.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "test_support.h"

using engine::Device;
using engine::Tensor;
using test_support::error_of;
using test_support::values;

namespace {

// The emulated GPU order written out element by element: 32 lanes with strided partial sums,
// then a halving tree, all in float32.
float gpu_order_sum(const std::vector<float>& x) {
  std::vector<float> lanes(32, 0.0f);
  for (std::size_t i = 0; i < x.size(); ++i) lanes[i % 32] += x[i];
  for (std::size_t width = 16; width >= 1; width /= 2) {
    for (std::size_t l = 0; l < width; ++l) lanes[l] += lanes[l + width];
  }
  return lanes[0];
}

// One result element of a product in blocks of 8, each block summed pairwise.
float gpu_order_dot(const std::vector<float>& a, const std::vector<float>& b) {
  float total = 0;
  for (std::size_t start = 0; start < a.size(); start += 8) {
    float block[8] = {};
    for (std::size_t q = 0; q < 8 && start + q < a.size(); ++q)
      block[q] = a[start + q] * b[start + q];
    for (std::size_t width = 4; width >= 1; width /= 2) {
      for (std::size_t q = 0; q < width; ++q) block[q] += block[q + width];
    }
    total += block[0];
  }
  return total;
}

int count_different(const std::vector<float>& a, const std::vector<float>& b) {
  int different = 0;
  for (std::size_t i = 0; i < a.size(); ++i) different += a[i] != b[i] ? 1 : 0;
  return different;
}

}  // namespace

TEST_CASE("a sum on mps adds in the GPU's order, and so differs from the cpu's in the last bits") {
  engine::sim::use_machine("m3-max-64gb");
  engine::manual_seed(0);
  const Tensor x = engine::randn({4096});
  const float on_mps = x.to(Device("mps")).sum().item<float>();
  CHECK(on_mps == gpu_order_sum(values(x)));
  CHECK(on_mps != x.sum().item<float>());  // this input happens to round differently
  CHECK(engine::allclose(x.to(Device("mps")).sum().cpu(), x.sum()));
}

TEST_CASE("a mean over a dimension on mps is the GPU-order sum scaled") {
  engine::sim::use_machine("m3-max-64gb");
  engine::manual_seed(1);
  const Tensor x = engine::randn({3, 100});
  const std::vector<float> on_mps = values(x.to(Device("mps")).mean({1}));
  const std::vector<float> all = values(x);
  for (int row = 0; row < 3; ++row) {
    const std::vector<float> one(all.begin() + row * 100, all.begin() + (row + 1) * 100);
    CHECK(on_mps[static_cast<std::size_t>(row)] == gpu_order_sum(one) * 0.01f);
  }
}

TEST_CASE("matrix products and linear layers on mps add in blocks of eight, close to the cpu's") {
  engine::sim::use_machine("m3-max-64gb");
  engine::manual_seed(2);
  const Tensor a = engine::randn({64, 300});
  const Tensor b = engine::randn({300, 48});
  const Tensor on_cpu = a.matmul(b);
  const Tensor on_mps = a.to(Device("mps")).matmul(b.to(Device("mps")));
  const std::vector<float> av = values(a), bv = values(b);
  std::vector<float> row(av.begin(), av.begin() + 300), column(300);
  for (std::size_t k = 0; k < 300; ++k) column[k] = bv[k * 48];
  CHECK(values(on_mps)[0] == gpu_order_dot(row, column));
  CHECK(count_different(values(on_mps), values(on_cpu)) > 0);
  // A sum of 300 products of size ~1 carries absolute errors of ~1e-5 whatever the result's size:
  // results near zero need an atol of that order, the default 1e-8 is too tight.
  CHECK_FALSE(engine::allclose(on_mps.cpu(), on_cpu));
  CHECK(engine::allclose(on_mps.cpu(), on_cpu, 1e-5, 1e-4));

  const Tensor w = (engine::randn({48, 300}) * 0.1).requires_grad_();
  const Tensor w_mps = w.detach().to(Device("mps")).requires_grad_();
  engine::nn::functional::linear(a, w).sum().backward();
  engine::nn::functional::linear(a.to(Device("mps")), w_mps).sum().backward();
  CHECK(count_different(values(w_mps.grad().cpu()), values(w.grad())) > 0);
  CHECK(engine::allclose(w_mps.grad().cpu(), w.grad(), 1e-5, 1e-4));
}

TEST_CASE("cpu results keep the cpu's own order") {
  engine::manual_seed(0);
  const Tensor x = engine::randn({4096});
  double exact = 0;  // the cpu sums in double and rounds once
  for (const float v : values(x)) exact += v;
  CHECK(x.sum().item<float>() == static_cast<float>(exact));
}

TEST_CASE("allclose compares with atol + rtol x |other|, as torch.allclose does") {
  const double nan = std::numeric_limits<double>::quiet_NaN(),
               inf = std::numeric_limits<double>::infinity();
  auto t = [](double v) { return engine::tensor({v}); };
  CHECK(engine::allclose(t(1.0 + 0.99e-5), t(1.0)));
  CHECK_FALSE(engine::allclose(t(1.0 + 1.1e-5), t(1.0)));
  CHECK(engine::allclose(t(1e-9), t(0.0)));  // atol covers values near zero
  CHECK_FALSE(engine::allclose(t(1e-7), t(0.0)));
  CHECK(engine::allclose(t(1.0), t(2.0), 0.5, 0));  // the second argument is the reference
  CHECK_FALSE(engine::allclose(t(2.0), t(1.0), 0.5, 0));
  CHECK_FALSE(engine::allclose(t(nan), t(nan)));
  CHECK(engine::allclose(t(nan), t(nan), 1e-5, 1e-8, true));
  CHECK(engine::allclose(t(inf), t(inf)));
  CHECK_FALSE(engine::allclose(t(inf), t(-inf)));
  CHECK(engine::allclose(engine::ones({2, 3}), engine::ones({3})));  // broadcasts
  CHECK(error_of([] { engine::allclose(engine::ones({1}), engine::zeros({1}, engine::kInt64)); }) ==
        "Float did not match Long");
  engine::sim::use_machine("m3-max-64gb");
  CHECK(
      error_of([] { engine::allclose(engine::ones({2}, Device("mps")), engine::ones({2})); }) ==
      "Expected all tensors to be on the same device, but found at least two devices, mps:0 and cpu!");
}
