#include "engine/tensor.h"

#include <doctest/doctest.h>

#include <numeric>

#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/sim.h"
#include "test_support.h"

using engine::Device;
using engine::IntArrayRef;
using engine::ScalarType;
using engine::Tensor;

using test_support::error_of;

using test_support::values;

namespace {}  // namespace

TEST_CASE("factories default to float32 on cpu, and integer arange and tensor to int64") {
  engine::sim::restart();
  CHECK(engine::zeros({2, 3}).scalar_type() == ScalarType::Float);
  CHECK(engine::zeros({2, 3}).device() == Device("cpu"));
  CHECK(engine::arange(6).scalar_type() == ScalarType::Long);
  CHECK(engine::arange(6, engine::kFloat32).scalar_type() == ScalarType::Float);
  CHECK(engine::tensor({0, 2, 1, 0}).scalar_type() == ScalarType::Long);
  CHECK(engine::tensor({0.5, 1.5}).scalar_type() == ScalarType::Float);
  const Tensor scalar = engine::tensor(2.5);
  CHECK(scalar.dim() == 0);
  CHECK(scalar.numel() == 1);
  CHECK(values(scalar) == std::vector<float>{2.5f});
}

TEST_CASE("factories fill the values they promise") {
  CHECK(values(engine::ones({3})) == std::vector<float>{1, 1, 1});
  CHECK(values(engine::zeros({2})) == std::vector<float>{0, 0});
  CHECK(values(engine::full({2}, 7.5)) == std::vector<float>{7.5f, 7.5f});
  CHECK(engine::arange(2, 11, 3).to_vector<std::int64_t>() == std::vector<std::int64_t>{2, 5, 8});
  CHECK(engine::arange(5, 0, -2).to_vector<std::int64_t>() == std::vector<std::int64_t>{5, 3, 1});
  CHECK(error_of([] { engine::arange(5, 0); }) ==
        "upper bound and larger bound inconsistent with step sign");
  CHECK(error_of([] { engine::randn({2}, engine::kInt64); }) ==
        "\"normal_kernel_cpu\" not implemented for 'Long'");
  CHECK(error_of([] { engine::zeros({-1}); }) ==
        "Trying to create tensor with negative dimension -1: [-1]");
}

TEST_CASE("reshape keeps the values, infers one -1 and reports PyTorch's errors") {
  const Tensor x = engine::arange(6, engine::kFloat32);
  const Tensor y = x.reshape({2, 3});
  CHECK(y.sizes() == IntArrayRef({2, 3}));
  CHECK(values(y) == values(x));
  CHECK(x.reshape({-1, 2}).sizes() == IntArrayRef({3, 2}));
  CHECK(error_of([&] { x.reshape({2, 4}); }) == "shape '[2, 4]' is invalid for input of size 6");
  CHECK(error_of([&] { x.reshape({-1, -1}); }) == "only one dimension can be inferred");
  CHECK(error_of([] {
          engine::zeros({0}).reshape({-1, 0});
        }) ==
        "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified "
        "dimension size -1 can be any value and is ambiguous");
}

TEST_CASE("mean over a dimension averages along it, as the ticket batch needs") {
  const Tensor x = engine::arange(24, engine::kFloat32).reshape({2, 3, 4});
  const Tensor m = x.mean({1});
  CHECK(m.sizes() == IntArrayRef({2, 4}));
  // x[b, t, f] = 12b + 4t + f, so the mean over t is 12b + 4 + f.
  CHECK(values(m) == std::vector<float>{4, 5, 6, 7, 16, 17, 18, 19});
  CHECK(x.mean({1}, true).sizes() == IntArrayRef({2, 1, 4}));
  CHECK(values(x.mean({0, 2})) == std::vector<float>{7.5f, 11.5f, 15.5f});
  CHECK(values(x.mean({-1})) == values(x.mean({2})));
  CHECK(values(x.mean()) == std::vector<float>{11.5f});
  CHECK(x.mean().dim() == 0);
}

TEST_CASE("mean refuses integer tensors and bad dimensions with PyTorch's messages") {
  CHECK(error_of([] { engine::arange(6).mean(); }) ==
        "mean(): could not infer output dtype. Input dtype must be either a floating point or "
        "complex dtype. Got: Long");
  CHECK(error_of([] { engine::zeros({3}).mean({3}); }) ==
        "Dimension out of range (expected to be in range of [-1, 0], but got 3)");
  CHECK(error_of([] {
          engine::zeros({2}).mean({0, 0});
        }) == "dim 0 appears multiple times in the list of dims");
  CHECK_THROWS_AS(engine::zeros({3}).mean({3}), engine::IndexError);
}

TEST_CASE("matmul follows torch.matmul for matrices, vectors and broadcast batches") {
  const Tensor a = engine::arange(6, engine::kFloat32).reshape({2, 3});
  const Tensor b = engine::arange(12, engine::kFloat32).reshape({3, 4});
  const Tensor c = a.matmul(b);
  CHECK(c.sizes() == IntArrayRef({2, 4}));
  CHECK(values(c) == std::vector<float>{20, 23, 26, 29, 56, 68, 80, 92});

  const Tensor v = engine::tensor({1.0, 2.0, 3.0});
  CHECK(values(a.matmul(v)) == std::vector<float>{8, 26});  // (2,3) @ (3,)  -> (2,)
  CHECK(engine::matmul(v, b).sizes() == IntArrayRef({4}));  // (3,) @ (3,4) -> (4,)
  CHECK(values(v.matmul(v)) == std::vector<float>{14});     // dot product -> 0-dim
  CHECK(v.matmul(v).dim() == 0);

  const Tensor batch = engine::arange(12, engine::kFloat32).reshape({2, 2, 3});
  const Tensor out = batch.matmul(b);  // (2,2,3) @ (3,4): b broadcasts over the batch
  CHECK(out.sizes() == IntArrayRef({2, 2, 4}));
  const std::vector<float> out_values = values(out);
  CHECK(std::vector<float>(out_values.begin(), out_values.begin() + 8) == values(c));
}

TEST_CASE("matmul reports shape errors as PyTorch does") {
  CHECK(error_of([] {
          engine::zeros({2, 3}).matmul(engine::zeros({4, 5}));
        }) == "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  CHECK(error_of([] { engine::zeros({3}).matmul(engine::zeros({4})); }) ==
        "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of "
        "elements, but got 3 and 4 elements respectively");
  CHECK(
      error_of([] {
        engine::zeros({2, 2, 3}).matmul(engine::zeros({3, 3, 2}));
      }) ==
      "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
  CHECK(error_of([] { engine::tensor(1.0).matmul(engine::zeros({2})); }) ==
        "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
}

TEST_CASE("a shape mismatch is reported by the operation matmul routes the operands to") {
  const auto error = [](std::vector<std::int64_t> a, std::vector<std::int64_t> b) {
    return error_of([&] { engine::zeros(a).matmul(engine::zeros(b)); });
  };
  CHECK(error({2, 3}, {2}) == "size mismatch, got input (2), mat (2x3), vec (2)");  // mv
  CHECK(error({3}, {4, 5}) ==
        "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)");  // a row, mm
  CHECK(error({2, 2, 3}, {4, 5}) ==
        "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)");                    // folded, mm
  CHECK(error({2, 2, 3}, {4}) == "size mismatch, got input (4), mat (4x3), vec (4)");  // folded, mv
  CHECK(
      error({2, 2, 3}, {2, 4, 5}) ==
      "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");  // bmm
  CHECK(
      error({4, 5}, {3, 2, 3}) ==
      "Expected size for first two dimensions of batch2 tensor to be: [3, 5] but got: [3, 2].");  // expanded, bmm
  // With the matrix requiring grad, the batch is folded instead: the batch operand transposed.
  CHECK(error_of([] {
          engine::zeros({4, 5}, engine::requires_grad()).matmul(engine::zeros({3, 2, 3}));
        }) == "mat1 and mat2 shapes cannot be multiplied (9x2 and 5x4)");
}

TEST_CASE(
    "to(device) copies to the other device and returns the tensor itself when already there") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor x = engine::arange(4, engine::kFloat32);
  const Tensor same = x.to(Device("cpu"));
  CHECK(same.is_same(x));
  const Tensor moved = x.to(Device("mps"));
  CHECK_FALSE(moved.is_same(x));
  CHECK(moved.device().str() == "mps:0");
  CHECK(x.device().str() == "cpu");  // the source did not move
  CHECK(values(moved) == values(x));
  CHECK(moved.to(Device("mps")).is_same(moved));
  CHECK(values(moved.cpu()) == values(x));
}

TEST_CASE("a matrix product across devices fails in mm's argument check, naming the cpu operand") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor on_mps = engine::ones({2, 2}, Device("mps"));
  const Tensor on_cpu = engine::ones({2, 2});
  CHECK(
      error_of([&] { on_mps.matmul(on_cpu); }) ==
      "Tensor for argument #2 'mat2' is on CPU, but expected it to be on GPU (while checking arguments for mm)");
  CHECK(
      error_of([&] { on_cpu.matmul(on_mps); }) ==
      "Tensor for argument #1 'mat1' is on CPU, but expected it to be on GPU (while checking arguments for mm)");
  CHECK(on_mps.matmul(on_mps).device().str() == "mps:0");
}

TEST_CASE("to(dtype) converts values, and data_ptr checks dtype and device") {
  engine::sim::use_machine("m3-max-64gb");
  CHECK(engine::arange(3).to(engine::kFloat32).to_vector<float>() == std::vector<float>{0, 1, 2});
  CHECK(engine::full({2}, 2.75).to(engine::kInt64).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{2, 2});
  CHECK(error_of([] { engine::zeros({1}).data_ptr<std::int64_t>(); }) ==
        "expected scalar type Long but found Float");
  CHECK(error_of([] {
          engine::zeros({1}, Device("mps")).data_ptr<float>();
        }).find("use .cpu() first") != std::string::npos);
}

TEST_CASE("set_data changes the tensor behind every handle, as param.data = ... does") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor a = engine::zeros({2});
  const Tensor alias = a;  // another handle to the same tensor
  a.set_data(a.to(Device("mps")));
  CHECK(alias.device().str() == "mps:0");
}
