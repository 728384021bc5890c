// Dtypes as PyTorch 2.9 has them: sizes, promotion (Note [Type promotion]), arithmetic that
// keeps or changes an integer dtype, float16 computed in float32 and rounded once, printing,
// conversions, and what mps refuses. tests/engine/pytorch/precision_parity_test.cpp compares
// much of the same with what a real PyTorch recorded.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/nn/functional.h"
#include "engine/nn/linear.h"
#include "engine/ops.h"
#include "engine/python_format.h"
#include "engine/sim.h"
#include "engine/type_promotion.h"
#include "test_support.h"

namespace F = engine::nn::functional;
using engine::Device;
using engine::ScalarType;
using engine::Tensor;
using test_support::error_of;

namespace {

Tensor ints(std::initializer_list<std::int64_t> values, ScalarType dtype = ScalarType::Long) {
  return engine::tensor(values).to(dtype);
}

std::string shown(const Tensor& t) { return engine::py::repr(t); }

}  // namespace

TEST_CASE("each dtype has PyTorch's element size and Python name") {
  const std::vector<std::pair<ScalarType, std::int64_t>> sizes = {
      {engine::kUInt8, 1}, {engine::kInt8, 1},    {engine::kInt16, 2},   {engine::kInt32, 4},
      {engine::kInt64, 8}, {engine::kFloat16, 2}, {engine::kFloat32, 4}, {engine::kFloat64, 8},
      {engine::kBool, 1},  {engine::kBFloat16, 2}};
  for (const auto& entry : sizes) {  // CAPTURE of a structured binding: not before clang 16
    const std::string name(engine::python_dtype_name(entry.first));
    CAPTURE(name);
    CHECK(engine::zeros({3}, entry.first).element_size() == entry.second);
  }
  CHECK(engine::py::str(engine::kBFloat16) == "torch.bfloat16");
  CHECK(engine::zeros({2}, engine::kHalf).is_floating_point());
  CHECK_FALSE(engine::zeros({2}, engine::kInt32).is_floating_point());
}

TEST_CASE("promote_types picks the smallest dtype that holds both") {
  CHECK(engine::promote_types(engine::kUInt8, engine::kInt8) == engine::kInt16);
  CHECK(engine::promote_types(engine::kFloat16, engine::kBFloat16) == engine::kFloat32);
  CHECK(engine::promote_types(engine::kBool, engine::kUInt8) == engine::kUInt8);
  CHECK(engine::promote_types(engine::kInt64, engine::kFloat16) == engine::kFloat16);
  CHECK(engine::promote_types(engine::kFloat32, engine::kFloat64) == engine::kFloat64);
}

TEST_CASE("a Python number or a 0-dim tensor does not promote a tensor of its own category") {
  engine::sim::restart();
  const Tensor i64 = ints({1, 2, 3});
  CHECK((i64 + 1.5).dtype() == engine::kFloat32);  // a float number: the default dtype
  CHECK((i64 * 2).dtype() == engine::kInt64);
  CHECK((ints({1, 2}, engine::kInt8) + 1000).dtype() == engine::kInt8);
  CHECK((engine::ones({2}, engine::kHalf) + engine::tensor(1.0)).dtype() == engine::kHalf);
  CHECK((engine::ones({2}, engine::kInt32) + engine::tensor(std::int64_t{1})).dtype() ==
        engine::kInt32);
  CHECK((engine::ones({2}, engine::kInt32) + engine::tensor(1.0)).dtype() == engine::kFloat32);
  CHECK((engine::ones({2}, engine::kBool) + 1).dtype() == engine::kInt64);
  CHECK(engine::result_type(engine::ones({2}, engine::kUInt8), engine::ones({2}, engine::kInt8)) ==
        engine::kInt16);
  CHECK(engine::result_type(engine::tensor(1.0), 2) == engine::kFloat32);
}

TEST_CASE("integers keep their dtype and wrap; true division makes float32, // rounds down") {
  CHECK((ints({100, 120}, engine::kInt8) * 2).to_vector<std::int8_t>() ==
        std::vector<std::int8_t>{-56, -16});
  CHECK((ints({7, -7}) / 2).to_vector<float>() == std::vector<float>{3.5f, -3.5f});
  CHECK(engine::floor_divide(ints({7, -7}), 2).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{3, -4});
  CHECK(engine::div(ints({7, -7}), 2, "trunc").to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{3, -3});
  CHECK(engine::floor_divide(engine::tensor({7.0, -7.0}), 2).to_vector<float>() ==
        std::vector<float>{3, -4});
  CHECK(engine::pow(ints({2, 3}), 2).to_vector<std::int64_t>() == std::vector<std::int64_t>{4, 9});
  CHECK(engine::tanh(ints({0})).dtype() == engine::kFloat32);
  CHECK(engine::relu(ints({-1, 2})).to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 2});
  CHECK(error_of([] { engine::floor_divide(ints({1}), 0); }) == "ZeroDivisionError");
  CHECK(error_of([] { engine::div(ints({1}), 2, "round"); }) ==
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
}

TEST_CASE("comparisons give bool tensors, computed in the promoted dtype") {
  const Tensor lt = ints({1, 2, 3}) < 2.5;
  CHECK(lt.dtype() == engine::kBool);
  CHECK(lt.to_vector<bool>() == std::vector<bool>{true, true, false});
  CHECK((ints({1, 2}) == engine::tensor({1.0, 2.5})).to_vector<bool>() ==
        std::vector<bool>{true, false});
  CHECK(engine::tensor({true, true, false}).sum().item<std::int64_t>() == 2);  // bools count
}

TEST_CASE("bool tensors refuse subtraction and negation with PyTorch's texts") {
  const Tensor mask = engine::tensor({true, false});
  CHECK(error_of([&] { mask - mask; }) ==
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
        "`logical_xor()` operator instead.");
  CHECK(error_of([&] { -mask; }) ==
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
        "invert a mask, use the `~` or `logical_not()` operator instead.");
  CHECK(error_of([] { ints({1}).add_(engine::ones({1})); }) ==
        "result type Float can't be cast to the desired output type Long");
}

TEST_CASE("float16 arithmetic computes in float32 and rounds each result once") {
  const Tensor one = engine::ones({1}, engine::kHalf);
  // 1 + 2^-11 is a tie between 1 and the next float16: even wins.
  CHECK((one + 0x1p-11).item<float>() == 1.0f);
  CHECK((one + 0x1.8p-11).item<float>() == 1.0f + 0x1p-10f);
  CHECK((engine::full({1}, 60000.0, engine::kHalf) * 2).item<float>() ==
        std::numeric_limits<float>::infinity());  // float16's range ends at 65504
  // a float16 sum adds in float32: 4096 ones are exact there, as 4096 is in float16
  CHECK(engine::ones({4096}, engine::kHalf).sum().item<float>() == 4096.0f);
  const Tensor x = engine::randn({4, 8}).to(engine::kHalf);
  const Tensor w = engine::randn({8, 3}).to(engine::kHalf);
  const Tensor y = x.matmul(w);
  CHECK(y.dtype() == engine::kHalf);
  CHECK(y.to_vector<engine::Half>().size() == 12);
  // one rounding: the float32 product of the same values, rounded to float16
  CHECK(engine::equal(y, x.to(engine::kFloat).matmul(w.to(engine::kFloat)).to(engine::kHalf)));
}

TEST_CASE("to() rounds into narrower dtypes and converts floats into integers as a Mac does") {
  CHECK(engine::tensor({0.1}).to(engine::kBFloat16).item<float>() == 0.10009765625f);
  CHECK(engine::tensor({-1.0, 256.0, 3.7}).to(engine::kUInt8).to_vector<std::uint8_t>() ==
        std::vector<std::uint8_t>{255, 0, 3});
  CHECK(engine::tensor({3e9, -3e9}).to(engine::kInt32).to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{2147483647, -2147483647 - 1});
  const Tensor x = engine::ones({2}).requires_grad_();
  const Tensor h = x.to(engine::kHalf);
  CHECK(h.grad_fn()->name() == "ToCopyBackward0");
  (h * 3).sum().backward();
  CHECK(x.grad().dtype() == engine::kFloat32);  // gradients come back in the input's dtype
  CHECK(test_support::values(x.grad()) == std::vector<float>{3, 3});
}

TEST_CASE("tensors print as Python prints each dtype") {
  const Tensor values = engine::tensor({1.0, 2.5, -3.25, 0.1});
  CHECK(shown(values.to(engine::kHalf)) ==
        "tensor([ 1.0000,  2.5000, -3.2500,  0.1000], dtype=torch.float16)");
  CHECK(shown(values.to(engine::kBFloat16)) ==
        "tensor([ 1.0000,  2.5000, -3.2500,  0.1001], dtype=torch.bfloat16)");
  CHECK(shown(values.to(engine::kInt8)) == "tensor([ 1,  2, -3,  0], dtype=torch.int8)");
  CHECK(shown(values.to(engine::kInt64)) == "tensor([ 1,  2, -3,  0])");
  CHECK(shown(values.to(engine::kFloat64)) ==
        "tensor([ 1.0000,  2.5000, -3.2500,  0.1000], dtype=torch.float64)");
  CHECK(shown(engine::ones({0}, engine::kHalf)) == "tensor([], dtype=torch.float16)");
}

TEST_CASE("mps refuses float64 with PyTorch's TypeError, and keeps float16 in half the bytes") {
  engine::sim::use_machine("m3-max-64gb");
  CHECK(
      error_of([] { engine::zeros({2}, engine::TensorOptions(engine::kFloat64).device("mps")); }) ==
      "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. "
      "Please use float32 instead.");
  CHECK(
      error_of([] { engine::zeros({2}, engine::kFloat64).to(Device("mps")); }) ==
      "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. "
      "Please use float32 instead.");
  CHECK(engine::ones({2}, engine::kBFloat16).to(Device("mps")).dtype() == engine::kBFloat16);
  const std::int64_t before = engine::py::torch::mps::current_allocated_memory();
  const Tensor half = engine::zeros({1 << 20}, engine::TensorOptions(engine::kHalf).device("mps"));
  const std::int64_t half_bytes = engine::py::torch::mps::current_allocated_memory() - before;
  const Tensor single = engine::zeros({1 << 20}, engine::TensorOptions().device("mps"));
  CHECK(half_bytes == 2 << 20);
  CHECK(engine::py::torch::mps::current_allocated_memory() - before == (2 << 20) + (4 << 20));
}

TEST_CASE("on macOS 13 bfloat16 on mps fails where every mps tensor does in 2.9") {
  engine::sim::use_machine("m2-max-macos13.7");
  CHECK(error_of(
            [] { engine::zeros({2}, engine::TensorOptions(engine::kBFloat16).device("mps")); }) ==
        "The MPS backend is supported on MacOS 13.0+.Current OS version can be queried using "
        "`sw_vers`");
}

TEST_CASE("nn functions keep a floating input's dtype, and name the kernel an integer lacks") {
  engine::sim::restart();
  const Tensor x = engine::randn({2, 8}).to(engine::kHalf);
  CHECK(engine::softmax(x, 1).dtype() == engine::kHalf);
  CHECK(F::gelu(x).dtype() == engine::kHalf);
  CHECK(F::layer_norm(x, F::LayerNormFuncOptions({8})).dtype() == engine::kHalf);
  CHECK(F::linear(x, engine::randn({3, 8}).to(engine::kHalf)).dtype() == engine::kHalf);
  CHECK(error_of([] { engine::softmax(engine::arange(3), 0); }) ==
        "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
  CHECK(error_of([] { F::gelu(engine::arange(3)); }) ==
        "\"GeluKernelImpl\" not implemented for 'Long'");
  // AT_DISPATCH's error is Python's NotImplementedError from PyTorch 2.x on (1.13's a RuntimeError)
  CHECK_THROWS_AS(F::gelu(engine::arange(3)), engine::NotImplementedError);
  CHECK(error_of([] {
          engine::ones({2, 2}).matmul(engine::ones({2, 2}, engine::kFloat64));
        }) == "expected m1 and m2 to have the same dtype, but got: float != double");
}
