// The framework's own host time beside the kernels (Note [Framework overhead]): autograd's
// nodes and the optimizers' Python loops, priced in the machine's tiny-op overhead.

#include <doctest/doctest.h>

#include <string>

#include "engine/autograd.h"
#include "engine/compile.h"
#include "engine/factories.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/optim/sgd.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "engine/timeline.h"

using engine::Tensor;
using engine::py::time::perf_counter;

namespace {

double framework_seconds(const engine::sim::TimelineRecording& recording) {
  double total = 0;
  for (const auto& span : recording.spans()) {
    if (span.category == "framework") total += span.duration;
  }
  return total;
}

// Seconds of host time `work` takes.
template <typename Work>
double host_seconds(Work&& work) {
  const double start = perf_counter();
  work();
  return perf_counter() - start;
}

}  // namespace

TEST_CASE("an op whose input requires grad pays for recording its node; without grad it does not") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor a = engine::randn({4, 4});
  const Tensor leaf = engine::randn({4, 4}).requires_grad_(true);
  const double plain = host_seconds([&] { static_cast<void>(a * a); });
  const double recorded = host_seconds([&] { static_cast<void>(leaf * a); });
  // PyTorch 2.11 measured 0.69 tiny ops for the node (tests/data/pytorch-2.11)
  CHECK(recorded - plain ==
        doctest::Approx(0.69 * engine::sim::machine().cpu_op_seconds).epsilon(1e-6));
  engine::NoGradGuard no_grad;
  CHECK(host_seconds([&] { static_cast<void>(leaf * a); }) == doctest::Approx(plain));
}

TEST_CASE("backward pays autograd's engine once per node it runs") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor leaf = engine::randn({4, 4}).requires_grad_(true);
  const auto backward_framework = [&](int nodes) {
    Tensor x = leaf;
    for (int i = 0; i < nodes; ++i) x = x * 2.0;
    const Tensor loss = x.sum();
    engine::sim::TimelineRecording recording;
    loss.backward();
    return framework_seconds(recording);
  };
  const double per_node = 1.76 * engine::sim::machine().cpu_op_seconds;
  CHECK(backward_framework(10) - backward_framework(5) == doctest::Approx(5 * per_node));
}

TEST_CASE("an optimizer's Python loop costs per parameter, Adam's far more than SGD's") {
  engine::sim::use_machine("m1-8gb");
  std::vector<Tensor> params;
  for (int i = 0; i < 8; ++i) {
    params.push_back(engine::randn({4, 4}).requires_grad_(true));
    params.back().set_grad(engine::ones({4, 4}));
  }
  const auto loop_seconds = [](auto& optimizer) {
    engine::sim::TimelineRecording recording;
    optimizer.step();
    return framework_seconds(recording);
  };
  engine::optim::SGD sgd(params, engine::optim::SGDOptions(0.1));
  engine::optim::Adam adam(params, engine::optim::AdamOptions(0.1));
  engine::optim::AdamW adamw(params, engine::optim::AdamWOptions(0.1));
  const double tiny = engine::sim::machine().cpu_op_seconds;
  CHECK(loop_seconds(sgd) == doctest::Approx(8 * 0.29 * tiny));
  // Adam's and AdamW's measured Python, and two ops on the step counter
  CHECK(loop_seconds(adam) == doctest::Approx(8 * (7.63 + 2) * tiny));
  CHECK(loop_seconds(adamw) == doctest::Approx(8 * (8.97 + 2) * tiny));
}

TEST_CASE("a compiled graph runs as one node: its ops record and run no nodes of their own") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor leaf = engine::randn({64, 64}, engine::Device("mps")).requires_grad_(true);
  const auto model =
      engine::py::torch::compile([](const Tensor& x) { return (x * 2.0 + 1.0).sum(); });
  for (int warm = 0; warm < 2; ++warm) model(leaf).backward();  // traced and compiled
  engine::sim::TimelineRecording recording;
  model(leaf).backward();
  CHECK(framework_seconds(recording) == 0);
  const auto eager = [](const Tensor& x) { return (x * 2.0 + 1.0).sum(); };
  engine::sim::TimelineRecording eager_recording;
  eager(leaf).backward();
  CHECK(framework_seconds(eager_recording) > 0);
}
