#include "engine/notebook/doctest_printing.h"

#include <doctest/doctest.h>

#include "engine/factories.h"

TEST_CASE("failed checks show devices, shapes, dtypes and tensors as Python would name them") {
  using doctest::toString;  // unqualified, as doctest's assertions call it
  CHECK(toString(engine::Device("mps:0")) == "mps:0");
  CHECK(toString(engine::Device("cpu")) == "cpu");
  CHECK(toString(engine::kMPS) == "mps");
  CHECK(toString(engine::kFloat32) == "torch.float32");
  CHECK(toString(engine::IntArrayRef{32, 3}) == "(32, 3)");
  CHECK(toString(engine::IntArrayRef{3}) == "(3,)");
  CHECK(toString(engine::zeros({2, 2})) == "Tensor(shape=(2, 2), dtype=torch.float32, device=cpu)");
  CHECK(toString(engine::Tensor()) == "Tensor(undefined)");
}
