#include "engine/ops.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/sim.h"
#include "test_support.h"

using engine::Device;
using engine::IntArrayRef;
using engine::Tensor;

using test_support::error_of;

using test_support::values;

namespace {}  // namespace

TEST_CASE("arithmetic broadcasts as PyTorch does") {
  const Tensor a = engine::arange(6, engine::kFloat32).reshape({2, 3});
  const Tensor row = engine::tensor({10.0, 20.0, 30.0});
  CHECK(values(a + row) == std::vector<float>{10, 21, 32, 13, 24, 35});
  CHECK(values(a * engine::tensor(2.0)) == std::vector<float>{0, 2, 4, 6, 8, 10});
  CHECK(values(a.reshape({2, 3, 1}) - engine::tensor({1.0, 2.0})).size() == 12);
  CHECK(values(1.0 - a) == std::vector<float>{1, 0, -1, -2, -3, -4});
  CHECK(values(a / 2.0) == std::vector<float>{0, 0.5f, 1, 1.5f, 2, 2.5f});
  CHECK(
      error_of([] { engine::ones({2}) + engine::ones({3}); }) ==
      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
}

TEST_CASE("mixing mps and cpu in an elementwise op fails whatever the operand order") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor on_mps = engine::ones({2}, Device("mps"));
  const Tensor on_cpu = engine::ones({2});
  const std::string expected =
      "Expected all tensors to be on the same device, but found at least two devices, mps:0 and cpu!";
  CHECK(error_of([&] { on_mps + on_cpu; }) == expected);
  CHECK(error_of([&] { on_cpu* on_mps; }) == expected);
}

TEST_CASE("one 0-dim cpu tensor is accepted next to an mps tensor, as a scalar") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor on_mps = engine::ones({2}, Device("mps"));
  const Tensor scalar = engine::tensor(2.0);
  CHECK((on_mps + scalar).device().str() == "mps:0");
  CHECK((scalar * on_mps).device().str() == "mps:0");
  CHECK(values(on_mps + scalar) == std::vector<float>{3, 3});
  CHECK(error_of([&] { on_mps + engine::ones({1}); }).rfind("Expected all tensors", 0) == 0);
}

TEST_CASE("slice takes rows like Python's t[:4], clamping its ends") {
  const Tensor x = engine::arange(12, engine::kFloat32).reshape({6, 2});
  const Tensor first = x.slice(0, 0, 4);
  CHECK(first.sizes() == IntArrayRef({4, 2}));
  CHECK(values(first) == std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(values(x.slice(0, -2, 100)) == std::vector<float>{8, 9, 10, 11});
  CHECK(x.slice(0, 5, 2).numel() == 0);
  CHECK(values(x.slice(1, 1, 2)) == std::vector<float>{1, 3, 5, 7, 9, 11});
}

TEST_CASE("transpose swaps dimensions") {
  const Tensor x = engine::arange(6, engine::kFloat32).reshape({2, 3});
  CHECK(x.transpose(0, 1).sizes() == IntArrayRef({3, 2}));
  CHECK(values(x.transpose(0, 1)) == std::vector<float>{0, 3, 1, 4, 2, 5});
  const Tensor y = engine::arange(24, engine::kFloat32).reshape({2, 3, 4});
  CHECK(values(y.transpose(0, 2).transpose(0, 2)) == values(y));
  CHECK(y.transpose(0, 2).sizes() == IntArrayRef({4, 3, 2}));
}

TEST_CASE("sum reduces like mean without the division") {
  const Tensor x = engine::arange(6, engine::kFloat32).reshape({2, 3});
  CHECK(values(x.sum({0})) == std::vector<float>{3, 5, 7});
  CHECK(values(x.sum()) == std::vector<float>{15});
  CHECK(x.sum({1}, true).sizes() == IntArrayRef({2, 1}));
}

TEST_CASE("the mean of no elements is NaN, as 0 / 0 is") {
  CHECK(std::isnan(engine::zeros({0}).mean().item<float>()));
  const Tensor columns = engine::zeros({0, 2}).mean({0});
  CHECK(columns.sizes() == IntArrayRef({2}));
  for (const float v : columns.to_vector<float>()) CHECK(std::isnan(v));
  CHECK(engine::zeros({0}).sum().item<float>() == 0);
}

TEST_CASE("integers and bools sum exactly to int64; their mean is refused as PyTorch refuses it") {
  const Tensor x = engine::arange(6).reshape({2, 3});
  CHECK(x.sum().scalar_type() == engine::kInt64);
  CHECK(x.sum().item<std::int64_t>() == 15);
  CHECK(x.sum({0}).to_vector<std::int64_t>() == std::vector<std::int64_t>{3, 5, 7});
  CHECK(x.sum({1}, true).sizes() == IntArrayRef({2, 1}));
  CHECK(x.sum({1}, true).to_vector<std::int64_t>() == std::vector<std::int64_t>{3, 12});
  const Tensor big = engine::tensor({std::int64_t{1} << 40, std::int64_t{1}});
  CHECK(big.sum().item<std::int64_t>() == (std::int64_t{1} << 40) + 1);  // exact, beyond float32
  const Tensor flags =
      engine::isfinite(engine::tensor({1.0, std::numeric_limits<double>::infinity(), 2.0}));
  CHECK(flags.sum().scalar_type() == engine::kInt64);
  CHECK(flags.sum().item<std::int64_t>() == 2);
  CHECK_THROWS_WITH(
      x.mean(),
      "mean(): could not infer output dtype. Input dtype must be either a floating point or "
      "complex dtype. Got: Long");
}

TEST_CASE("equal compares shape and values, and isfinite finds infinities and NaNs") {
  CHECK(engine::equal(engine::ones({2}), engine::ones({2})));
  CHECK_FALSE(engine::equal(engine::zeros({2}), engine::zeros({3})));  // no error, just False
  CHECK(engine::equal(engine::zeros({2}), engine::zeros({2}, engine::kInt64)));
  CHECK_FALSE(engine::equal(engine::ones({2}), engine::tensor({1.0, 1.5})));
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor finite = engine::isfinite(engine::tensor({1.0f, inf, std::nanf(""), -inf}));
  CHECK(finite.scalar_type() == engine::kBool);
  CHECK(finite.to_vector<bool>() == std::vector<bool>{true, false, false, false});
  CHECK(engine::all(engine::isfinite(engine::tensor(2.5))));
  CHECK_FALSE(engine::all(finite));
}

TEST_CASE("softmax's logarithm normalises along its dimension") {
  const Tensor x = engine::tensor({1.0, 2.0, 3.0, 1000.0, 1000.0, 1000.0}).reshape({2, 3});
  const std::vector<float> p = values(engine::log_softmax(x, 1));
  CHECK(std::exp(p[0]) + std::exp(p[1]) + std::exp(p[2]) == doctest::Approx(1.0));
  CHECK(p[3] == doctest::Approx(-std::log(3.0)));  // no overflow for large logits
}

TEST_CASE("cat joins tensors along a dimension, and its gradient splits back") {
  engine::sim::use_machine("linux-x86_64");
  const Tensor a = engine::arange(4).to(engine::kFloat).reshape({2, 2}).requires_grad_();
  const Tensor b = (engine::arange(2).to(engine::kFloat) + 10.0).reshape({2, 1}).requires_grad_();
  const Tensor joined = engine::cat({a, b}, 1);
  CHECK(joined.sizes().vec() == std::vector<std::int64_t>{2, 3});
  CHECK(values(joined) == std::vector<float>{0, 1, 10, 2, 3, 11});
  CHECK(joined.grad_fn()->name() == "CatBackward0");
  (joined * engine::arange(6).to(engine::kFloat).reshape({2, 3})).sum().backward();
  CHECK(values(a.grad()) == std::vector<float>{0, 1, 3, 4});
  CHECK(values(b.grad()) == std::vector<float>{2, 5});
  CHECK(error_of([&] {
          engine::cat({a, engine::zeros({3, 1})}, 1);
        }) ==
        "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for "
        "tensor number 1 in the list.");
}

TEST_CASE("tanh and pow give what PyTorch gives") {
  // torch.tanh and torch.pow on the same inputs, printed by PyTorch 1.13 as Python floats
  const Tensor x = engine::tensor({-3.0, -0.5, 0.0, 1e-5, 0.7, 25.0});
  CHECK(values(engine::tanh(x)) == std::vector<float>{-0.9950547814369202f, -0.46211716532707214f,
                                                      0.0f, 9.999999747378752e-06f,
                                                      0.6043677926063538f, 1.0f});
  CHECK(values(engine::pow(engine::tensor({-2.0, 0.5, 3.0, 1.7}), 3)) ==
        std::vector<float>{-8.0f, 0.125f, 27.0f, 4.913000106811523f});
  const Tensor z = engine::tensor({0.0, 0.5, 2.0, 1.7});
  CHECK(values(engine::pow(z, 0.5)) ==
        std::vector<float>{0.0f, 0.7071067690849304f, 1.4142135381698608f, 1.3038405179977417f});
  CHECK(values(engine::pow(z, 1.5)) ==
        std::vector<float>{0.0f, 0.3535533845424652f, 2.8284270763397217f, 2.21652889251709f});
  CHECK(values(engine::pow(engine::tensor({2.0, -4.0}), -1)) == std::vector<float>{0.5f, -0.25f});
  CHECK(std::isnan(values(engine::pow(engine::tensor({-2.0}), 1.5))[0]));
  const Tensor a = engine::tensor({0.3, -1.2}).requires_grad_(true);
  CHECK(engine::pow(a, 3).grad_fn()->name() == "PowBackward0");
  CHECK(engine::tanh(a).grad_fn()->name() == "TanhBackward0");
}
