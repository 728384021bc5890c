// The emulated MPS stream: kernels run asynchronously on the device timeline, and only PyTorch's
// sync points make the host wait.

#include <doctest/doctest.h>

#include <cmath>
#include <string_view>

#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/python_format.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "test_support.h"

using engine::Device;
using engine::Tensor;
using engine::py::time::perf_counter;
using test_support::error_of;

namespace {

// A device-heavy workload: sixteen 2048 x 2048 matrix products, ~1.4 ms each on the M3 Max
// against 20 us of dispatch.
Tensor heavy_work(const Tensor& x) {
  Tensor y = x;
  for (int i = 0; i < 16; ++i) y = y.matmul(x);
  return y;
}

Tensor big_mps_matrix() {
  engine::sim::ShapeOnlyGuard shape_only;  // only the cost matters here
  return engine::randn({2048, 2048}, Device("mps"));
}

}  // namespace

TEST_CASE("launching mps work costs the host only its dispatch time") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor x = big_mps_matrix();
  x.matmul(x);  // warm-up: builds the product's graph once
  const double start = perf_counter();
  heavy_work(x);
  const double launched = perf_counter() - start;
  const double dispatch = engine::sim::machine().host_dispatch_seconds;
  CHECK(launched == doctest::Approx(16 * dispatch));
  engine::mps::synchronize();
  const double finished = perf_counter() - start;
  CHECK(finished > 10 * launched);  // the device work is far longer than launching it
}

TEST_CASE("the first op with new shapes builds its graph on the host; later ones reuse it") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor x = big_mps_matrix();
  const double dispatch = engine::sim::machine().host_dispatch_seconds;
  const double compile = engine::sim::machine().graph_compile_seconds;
  auto host_cost = [](auto&& op) {
    const double before = perf_counter();
    op();
    return perf_counter() - before;
  };
  CHECK(host_cost([&] { x.matmul(x); }) == doctest::Approx(dispatch + compile));
  CHECK(host_cost([&] { x.matmul(x); }) == doctest::Approx(dispatch));
  const Tensor half = x.slice(0, 0, 1024);
  CHECK(host_cost([&] { half.matmul(x); }) > compile);  // new shapes, new graph
  engine::sim::restart();                               // a new process starts with an empty cache
  const Tensor again = big_mps_matrix();
  CHECK(host_cost([&] { again.matmul(again); }) == doctest::Approx(dispatch + compile));
}

TEST_CASE("reading a value, copying to the cpu and printing wait for the device") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor y = engine::randn({512, 512}, Device("mps")).sum();
  const Tensor x = big_mps_matrix();
  auto waits = [&](auto&& read) {
    heavy_work(x);  // queued after y's kernels, but the queue runs in order: reading y waits for it
    const double before = perf_counter();
    read(y);
    return perf_counter() - before;
  };
  y * 2.0;  // warm-up: loads the multiplication's kernel
  const double dispatch_only = waits([](const Tensor& y) { y * 2.0; });
  CHECK(dispatch_only ==
        doctest::Approx(engine::sim::machine().metal_dispatch_seconds));  // a Metal kernel
  CHECK(waits([](const Tensor& y) { y.item<float>(); }) > 10 * dispatch_only);
  CHECK(waits([](const Tensor& y) { y.cpu(); }) > 10 * dispatch_only);
  CHECK(waits([](const Tensor& y) { engine::py::repr(y); }) > 10 * dispatch_only);
  CHECK(waits([](const Tensor&) { engine::mps::synchronize(); }) > 10 * dispatch_only);
}

TEST_CASE("a blocking copy from the cpu to mps waits for the queued work") {
  engine::sim::use_machine("m3-max-64gb");
  heavy_work(big_mps_matrix());
  const double before = perf_counter();
  engine::ones({4}).to(Device("mps"));
  const double copy_took = perf_counter() - before;
  engine::mps::synchronize();
  CHECK(perf_counter() - before == doctest::Approx(copy_took));  // nothing was left to wait for
}

TEST_CASE("cpu work advances the host clock by its cost") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor x = engine::randn({512, 512});
  const double before = perf_counter();
  x.matmul(x);
  const double took = perf_counter() - before;
  const double flops = 2.0 * 512 * 512 * 512;
  CHECK(took >
        flops / engine::sim::machine().cpu_matrix_flops);  // not faster than the AMX units' peak
  CHECK(took <
        flops / engine::sim::machine().cpu_fp32_flops);  // but faster than the cores' NEON peak
}

TEST_CASE("a sync point costs the commit and completion latency, once per batch of work") {
  engine::sim::use_machine("m3-max-64gb");
  const double latency = engine::sim::machine().sync_latency_seconds;
  const Tensor x = engine::ones({4}, Device("mps"));
  engine::mps::synchronize();
  const double idle = perf_counter();
  engine::mps::synchronize();  // nothing encoded since the last wait: no command buffer to commit
  CHECK(perf_counter() == doctest::Approx(idle));
  x + 1.0;  // warm-up
  engine::mps::synchronize();
  const double start = perf_counter();
  x + 1.0;
  const double launched = perf_counter();
  engine::mps::synchronize();
  // the tiny kernel is done long before the host asks; the wait is the round trip itself
  CHECK(perf_counter() - launched == doctest::Approx(latency).epsilon(0.1));
  CHECK(perf_counter() - start > latency);
}

TEST_CASE("an MPSGraph op costs the host far more to encode than an op with its own Metal kernel") {
  engine::sim::use_machine("m1-pro-16gb");
  const Tensor x = engine::randn({64, 64}, Device("mps"));
  auto encode = [](auto&& op) {
    op();  // warm-up: the graph or the pipeline is prepared once
    const double before = perf_counter();
    op();
    return perf_counter() - before;
  };
  const double softmax = encode([&] { engine::softmax(x, -1); });  // MPSGraph in PyTorch 2.9
  const double add = encode([&] { x + x; });                       // a Metal kernel
  CHECK(softmax == doctest::Approx(20e-6));                        // pytorch/pytorch#148219, M1 Pro
  CHECK(add == doctest::Approx(1.3e-6));
}

TEST_CASE("a Metal kernel is prepared once per op; an MPSGraph once per op and shapes") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor small = engine::randn({64, 64}, Device("mps")),
               large = engine::randn({128, 64}, Device("mps"));
  const double compile = engine::sim::machine().graph_compile_seconds;
  auto host_cost = [](auto&& op) {
    const double before = perf_counter();
    op();
    return perf_counter() - before;
  };
  CHECK(host_cost([&] { small + small; }) > compile);  // first add: loads the kernel
  CHECK(host_cost([&] { large + large; }) < compile);  // new shapes, same kernel
  CHECK(host_cost([&] { engine::softmax(small, -1); }) > compile);
  CHECK(host_cost([&] { engine::softmax(large, -1); }) > compile);  // new shapes, new graph
}

TEST_CASE("a matrix product's share of peak grows with its size, without a step") {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::ShapeOnlyGuard shape_only;
  auto tflops = [](std::int64_t n) {
    const Tensor a = engine::randn({n, n}, Device("mps"));
    a.matmul(a);  // warm-up
    engine::mps::synchronize();
    const double before = perf_counter();
    for (int i = 0; i < 20; ++i) a.matmul(a);
    engine::mps::synchronize();
    return 20 * 2.0 * static_cast<double>(n * n * n) / (perf_counter() - before) / 1e12;
  };
  double previous = 0;
  for (const std::int64_t n : {64, 128, 256, 512, 1024, 2048, 4096}) {
    const double now = tflops(n);
    CAPTURE(n);
    CHECK(now > previous);
    previous = now;
  }
  CHECK(previous > 0.7 * 14.3);  // a 4096 x 4096 product: about 80 % of the M3 Max's peak
  CHECK(previous < 14.3);
}

TEST_CASE("cpu dropout draws its random numbers on one core, however many the machine has") {
  engine::sim::ShapeOnlyGuard shape_only;
  auto dropout_seconds = [](std::string_view machine) {
    engine::sim::use_machine(machine);
    const Tensor x = engine::randn({1024, 1024});
    const double before = perf_counter();
    engine::nn::functional::dropout(
        x, engine::nn::functional::DropoutFuncOptions().p(0.2).training(true));
    return perf_counter() - before;
  };
  // 4 performance cores at 4.05 GHz against 12: the serial bernoulli_ takes the same time
  CHECK(dropout_seconds("m3-16gb") ==
        doctest::Approx(dropout_seconds("m3-max-64gb")).epsilon(0.05));
}

TEST_CASE("events mark points on the device timeline and time the work between them") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor x = big_mps_matrix();
  engine::py::torch::mps::Event start(true), end(true);
  CHECK_FALSE(start.query());  // never recorded
  start.record();
  heavy_work(x);
  end.record();
  CHECK_FALSE(end.query());  // the work is still queued
  const double host_before = perf_counter();
  const double device_ms = start.elapsed_time(end);  // waits for the device first
  CHECK(end.query());
  CHECK(perf_counter() > host_before);
  CHECK(device_ms > 1.0);
  engine::py::torch::mps::Event marker;
  marker.record();
  marker.synchronize();
  CHECK(marker.query());
}

TEST_CASE("torch.mps calls without an MPS build fail as PyTorch's hooks do") {
  engine::sim::use_machine("linux-x86_64");
  CHECK(error_of([] { engine::mps::synchronize(); }) ==
        "Cannot execute deviceSynchronize() without MPS backend.");
  CHECK(error_of([] { engine::py::torch::mps::Event event; }) ==
        "Cannot execute acquireEvent() without MPS backend.");
}

TEST_CASE("shape-only tensors have shapes and costs but no values") {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::ShapeOnlyGuard shape_only;
  const Tensor huge =
      engine::zeros({1024, 1024, 1024, 6}, Device("mps"));  // 24 GiB, never allocated
  CHECK(engine::sim::is_shape_only(huge));
  const Tensor y = (huge * 2.0).sum({3});
  CHECK(y.sizes() == engine::IntArrayRef({1024, 1024, 1024}));
  CHECK(engine::sim::is_shape_only(y));
  const double before = perf_counter();
  CHECK(std::isnan(y.sum().item<float>()));  // waits like the real item(), but has nothing to read
  CHECK(perf_counter() - before > 0.1);      // streaming 24 GiB takes the simulated GPU a while
  CHECK(error_of([&] { engine::py::repr(y); }).find("shape-only") != std::string::npos);
  CHECK(error_of([&] { y.sum().to(engine::kInt64).item<std::int64_t>(); }).find("shape-only") !=
        std::string::npos);
}
