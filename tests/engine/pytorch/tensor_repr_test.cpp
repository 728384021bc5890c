// repr(tensor) against what PyTorch prints for the same tensors (Python 3.11, default print
// options).

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "engine/autograd.h"
#include "engine/factories.h"
#include "engine/ops.h"
#include "engine/python_format.h"
#include "engine/sim.h"

using engine::Tensor;
using engine::py::repr;

namespace {

Tensor floats(std::int64_t n) { return engine::arange(n, engine::kFloat32); }

}  // namespace

TEST_CASE("scalars, whole and fractional values, and negatives print as PyTorch prints them") {
  CHECK(repr(engine::tensor(2.5)) == "tensor(2.5000)");
  CHECK(repr(engine::tensor({1.0, 2.0, 3.0})) == "tensor([1., 2., 3.])");
  CHECK(repr(engine::tensor({0.1, 2.5})) == "tensor([0.1000, 2.5000])");
  CHECK(repr(engine::tensor({-1.5, 2.0})) == "tensor([-1.5000,  2.0000])");
  CHECK(repr(engine::tensor({1.23456789, 10.5})) == "tensor([ 1.2346, 10.5000])");
  CHECK(repr(engine::tensor({-0.0, 1.0})) == "tensor([-0., 1.])");
  CHECK(repr(engine::tensor(7)) == "tensor(7)");
}

TEST_CASE("wide ranges switch to scientific notation") {
  CHECK(repr(engine::tensor({1e-5, 1.0})) == "tensor([1.0000e-05, 1.0000e+00])");
  CHECK(repr(engine::tensor({123456789.0, 1.0})) == "tensor([1.2346e+08, 1.0000e+00])");
  CHECK(repr(engine::tensor({0.001, 1000.0})) == "tensor([1.0000e-03, 1.0000e+03])");
}

TEST_CASE("integers, bools, infinities and empty tensors") {
  CHECK(repr(engine::arange(6).reshape({2, 3})) == "tensor([[0, 1, 2],\n        [3, 4, 5]])");
  const Tensor flags =
      engine::isfinite(engine::tensor({1.0, std::numeric_limits<double>::infinity()}));
  CHECK(repr(flags) == "tensor([ True, False])");
  CHECK(repr(engine::tensor({std::numeric_limits<double>::infinity(), std::nan(""), 1.0})) ==
        "tensor([inf, nan, 1.])");
  // A NaN with its sign bit set, as 0 * -inf gives: PyTorch prints it without a sign too.
  CHECK(repr(engine::tensor({-std::nan(""), 2.5})) == "tensor([   nan, 2.5000])");
  CHECK(repr(engine::tensor(-std::nan(""))) == "tensor(nan)");
  CHECK(repr(engine::tensor({-std::nan(""), 1e-9, 1.0})) ==
        "tensor([       nan, 1.0000e-09, 1.0000e+00])");
  CHECK(repr(engine::zeros({0})) == "tensor([])");
  CHECK(repr(engine::zeros({0, 3})) == "tensor([], size=(0, 3))");
  CHECK(repr(engine::arange(0)) == "tensor([], dtype=torch.int64)");
  CHECK(repr(engine::zeros({0}, engine::requires_grad())) == "tensor([], requires_grad=True)");
}

TEST_CASE("long rows wrap at 80 columns and big tensors are summarised") {
  CHECK(repr(floats(30) * 1.5) ==
        "tensor([ 0.0000,  1.5000,  3.0000,  4.5000,  6.0000,  7.5000,  9.0000, 10.5000,\n"
        "        12.0000, 13.5000, 15.0000, 16.5000, 18.0000, 19.5000, 21.0000, 22.5000,\n"
        "        24.0000, 25.5000, 27.0000, 28.5000, 30.0000, 31.5000, 33.0000, 34.5000,\n"
        "        36.0000, 37.5000, 39.0000, 40.5000, 42.0000, 43.5000])");
  CHECK(repr(floats(2000)) ==
        "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
        "        1.9990e+03])");
  CHECK(repr(floats(1600).reshape({40, 40}) / 7.0) ==
        "tensor([[0.0000e+00, 1.4286e-01, 2.8571e-01,  ..., 5.2857e+00, 5.4286e+00,\n"
        "         5.5714e+00],\n"
        "        [5.7143e+00, 5.8571e+00, 6.0000e+00,  ..., 1.1000e+01, 1.1143e+01,\n"
        "         1.1286e+01],\n"
        "        [1.1429e+01, 1.1571e+01, 1.1714e+01,  ..., 1.6714e+01, 1.6857e+01,\n"
        "         1.7000e+01],\n"
        "        ...,\n"
        "        [2.1143e+02, 2.1157e+02, 2.1171e+02,  ..., 2.1671e+02, 2.1686e+02,\n"
        "         2.1700e+02],\n"
        "        [2.1714e+02, 2.1729e+02, 2.1743e+02,  ..., 2.2243e+02, 2.2257e+02,\n"
        "         2.2271e+02],\n"
        "        [2.2286e+02, 2.2300e+02, 2.2314e+02,  ..., 2.2814e+02, 2.2829e+02,\n"
        "         2.2843e+02]])");
  CHECK(repr(floats(8).reshape({2, 2, 2})) ==
        "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n         [6., 7.]]])");
}

TEST_CASE("the device and autograd state follow the values") {
  engine::sim::use_machine("m3-max-64gb");
  CHECK(repr(engine::ones({2}, engine::requires_grad())) == "tensor([1., 1.], requires_grad=True)");
  CHECK(repr(engine::ones({2}, engine::requires_grad()) * 2.0) ==
        "tensor([2., 2.], grad_fn=<MulBackward0>)");
  CHECK(repr(engine::tensor(2.5, engine::Device("mps"))) == "tensor(2.5000, device='mps:0')");
  // An empty tensor names its device before its size, as torch/_tensor_str.py orders them.
  CHECK(repr(engine::zeros({0, 3}, engine::Device("mps"))) ==
        "tensor([], device='mps:0', size=(0, 3))");
  // A suffix that would end at column 81 goes on a line of its own: _add_suffixes counts a
  // single line's length plus 2 (its rfind("\n") is -1).
  const engine::Tensor row =
      engine::tensor({-1.0, -0.6667, -0.3333, 0.0, 0.3333, 0.6667}, engine::Device("mps"))
          .reshape({1, 6});
  CHECK(repr(row) ==
        "tensor([[-1.0000, -0.6667, -0.3333,  0.0000,  0.3333,  0.6667]],\n       device='mps:0')");
  CHECK(repr(row.slice(1, 0, 5)) ==
        "tensor([[-1.0000, -0.6667, -0.3333,  0.0000,  0.3333]], device='mps:0')");
}
