// engine::compile, the emulator's stand-in for torch.compile: the same values as eager mode, a
// one-time compilation per mode on the host, the backward compiled when first used, matrix
// products priced as eager ones.

#include "engine/compile.h"

#include <doctest/doctest.h>

#include <cmath>

#include "engine/autograd.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/nn/functional.h"
#include "engine/nn/linear.h"
#include "engine/ops.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "engine/time.h"

using engine::Device;
using engine::Tensor;
using engine::py::time::perf_counter;
namespace F = engine::nn::functional;

namespace {

// Host seconds `op` takes.
template <typename Op>
double host_seconds(Op&& op) {
  const double before = perf_counter();
  op();
  return perf_counter() - before;
}

// Device seconds of `op`, measured between two synchronizations.
template <typename Op>
double synchronized_seconds(Op&& op) {
  engine::mps::synchronize();
  const double before = perf_counter();
  op();
  engine::mps::synchronize();
  return perf_counter() - before;
}

// A 512-wide linear layer on the M3 Max's mps device, shape-only, compiled, and an input for it.
struct CompiledLayer {
  bool started =
      (engine::sim::use_machine("m3-max-64gb"), true);  // a fresh process, before any tensor
  engine::sim::ShapeOnlyGuard shape_only;
  engine::nn::Linear model = make_model();
  engine::py::torch::CompiledModule<engine::nn::Linear> compiled =
      engine::py::torch::compile(model);
  Tensor x = engine::randn({64, 512}, Device("mps"));

  static engine::nn::Linear make_model() {
    engine::nn::Linear layer(512, 512);
    layer->to(Device("mps"));
    return layer;
  }
};

}  // namespace

TEST_CASE("a compiled module computes what the eager one does") {
  engine::sim::use_machine("m3-max-64gb");
  engine::manual_seed(0);
  engine::nn::Linear model(8, 4);
  model->to(Device("mps"));
  const auto compiled = engine::py::torch::compile(model);
  const Tensor x = engine::randn({2, 8}, Device("mps"));
  const Tensor eager = engine::relu(model(x)).cpu(), fast = engine::relu(compiled(x)).cpu();
  for (std::int64_t i = 0; i < 8; ++i)
    CHECK(fast.data_ptr<float>()[i] == eager.data_ptr<float>()[i]);
}

TEST_CASE("the first call in each mode compiles on the host; later calls run the compiled graph") {
  CompiledLayer layer;
  const double first = host_seconds([&] { layer.compiled(layer.x); });
  const double second = host_seconds([&] { layer.compiled(layer.x); });
  CHECK(first > 1e-2);   // Dynamo to Metal: tens of milliseconds per traced op
  CHECK(second < 1e-3);  // a compiled graph's call: encoding only
  engine::NoGradGuard no_grad;
  CHECK(host_seconds([&] { layer.compiled(layer.x); }) >
        1e-2);  // a new mode (no_grad): a new graph
  CHECK(host_seconds([&] { layer.compiled(layer.x); }) < 1e-3);
}

TEST_CASE("the backward of a compiled forward is compiled the first time it runs") {
  CompiledLayer layer;
  const Tensor first = layer.compiled(layer.x).sum();
  CHECK(host_seconds([&] { first.backward(); }) > 1e-2);
  const Tensor second = layer.compiled(layer.x).sum();
  CHECK(host_seconds([&] { second.backward(); }) < 1e-3);
}

TEST_CASE("compiled matrix products cost what eager ones cost; generated kernels do not") {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::ShapeOnlyGuard shape_only;
  const Tensor a = engine::randn({2048, 2048}, Device("mps"));
  const auto product = engine::py::torch::compile([](const Tensor& x) { return x.matmul(x); });
  const auto pointwise =
      engine::py::torch::compile([](const Tensor& x) { return F::gelu(x * 2.0 + 1.0); });
  for (int warm = 0; warm < 2; ++warm) {  // compile, and prepare the eager kernels
    product(a);
    pointwise(a);
    a.matmul(a);
    F::gelu(a * 2.0 + 1.0);
  }
  const double eager_product = synchronized_seconds([&] { a.matmul(a); });
  CHECK(synchronized_seconds([&] { product(a); }) == doctest::Approx(eager_product).epsilon(0.02));
  // three eager kernels against one fused, generated kernel: priced differently
  const double eager_pointwise = synchronized_seconds([&] { F::gelu(a * 2.0 + 1.0); });
  const double compiled_pointwise = synchronized_seconds([&] { pointwise(a); });
  CHECK(std::abs(compiled_pointwise / eager_pointwise - 1) > 0.1);
}
