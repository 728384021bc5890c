// sim::estimated_operator: an operator the engine lacks, run for its cost and memory only.

#include "engine/estimated_operator.h"

#include <doctest/doctest.h>

#include <functional>

#include "engine/autograd.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/sim.h"
#include "engine/time.h"

using engine::Device;
using engine::Tensor;
using engine::sim::OperatorClass;

namespace {

// The host's seconds one call of `op` takes on m3-max-64gb's cpu.
double seconds_of(const std::function<void()>& op) {
  const double start = engine::py::time::perf_counter();
  op();
  return engine::py::time::perf_counter() - start;
}

}  // namespace

TEST_CASE("an estimated operator makes a shape-only result of the traced shape, priced by class") {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::ShapeOnlyGuard shape_only;
  const Tensor x = engine::zeros({64, 3, 128, 128});
  Tensor up;
  const double elementwise = seconds_of([&] {
    up = engine::sim::estimated_operator("aten::upsample_nearest2d", OperatorClass::Elementwise,
                                         {x}, {64, 3, 256, 256}, engine::kFloat, Device("cpu"));
  });
  CHECK(up.sizes().vec() == std::vector<std::int64_t>{64, 3, 256, 256});
  CHECK(engine::sim::is_shape_only(up));
  CHECK(elementwise > 0);
  // a product of the same tensors costs its flops, far more than its traffic
  const double product = seconds_of([&] {
    static_cast<void>(engine::sim::estimated_operator(
        "aten::bmm", OperatorClass::Product, {x}, {64, 3, 256, 256}, engine::kFloat, Device("cpu"),
        {.m = 256, .n = 256, .depth = 4096, .batch = 192}));
  });
  CHECK(product > 10 * elementwise);
  // a view costs the host's dispatch only, and no memory on mps
  const Tensor on_mps = engine::zeros({1024, 1024}).to("mps");
  const std::int64_t before = engine::py::torch::mps::current_allocated_memory();
  const Tensor view = engine::sim::estimated_operator("aten::unfold", OperatorClass::View, {on_mps},
                                                      {1024, 1024}, engine::kFloat, Device("mps"));
  CHECK(engine::py::torch::mps::current_allocated_memory() == before);
  CHECK(view.device().str() == "mps:0");  // where a tensor made on "mps" lands
}

TEST_CASE("an estimated operator's gradient reaches each input that requires grad, in its shape") {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::ShapeOnlyGuard shape_only;
  Tensor weight = engine::zeros({16, 8});
  weight.requires_grad_(true);
  const Tensor x = engine::zeros({4, 8});
  const Tensor y =
      engine::sim::estimated_operator("aten::mm", OperatorClass::Product, {x, weight}, {4, 16},
                                      engine::kFloat, Device("cpu"), {.m = 4, .n = 16, .depth = 8});
  REQUIRE(y.requires_grad());
  CHECK(y.grad_fn()->name() == "EstimatedBackward");
  y.sum().backward();
  CHECK(weight.grad().sizes().vec() == std::vector<std::int64_t>{16, 8});
  CHECK_FALSE(x.grad().defined());
}
