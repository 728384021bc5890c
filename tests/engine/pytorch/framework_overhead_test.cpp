// The framework's own host time beside the kernels (Note [Framework overhead]): autograd's
// nodes, the calls of backward(), step() and zero_grad(), and the optimizers' Python loops, priced
// in the machine's tiny-op overhead. Every check compares in tiny ops, numbers near one, so that
// a wrong ratio cannot hide inside a tolerance meant for seconds.

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/autograd.h"
#include "engine/compile.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/optim/sgd.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "engine/timeline.h"

using engine::Tensor;
using engine::py::time::perf_counter;

namespace {

double tiny_op() { return engine::sim::machine().cpu_op_seconds; }

// The recording's framework time, in tiny ops.
double framework_tiny_ops(const engine::sim::TimelineRecording& recording) {
  double total = 0;
  for (const auto& span : recording.spans()) {
    if (span.category == "framework") total += span.duration;
  }
  return total / tiny_op();
}

int launches(const engine::sim::TimelineRecording& recording, const std::string& name) {
  int count = 0;
  for (const auto& span : recording.spans()) count += span.name == name ? 1 : 0;
  return count;
}

// Host time `work` takes, in tiny ops.
template <typename Work>
double host_tiny_ops(Work&& work) {
  const double start = perf_counter();
  work();
  return (perf_counter() - start) / tiny_op();
}

std::vector<Tensor> parameters_with_grads(int count) {
  std::vector<Tensor> params;
  for (int i = 0; i < count; ++i) {
    params.push_back(engine::randn({4, 4}).requires_grad_(true));
    params.back().set_grad(engine::ones({4, 4}));
  }
  return params;
}

template <typename Optimizer>
double step_tiny_ops(Optimizer& optimizer) {
  engine::sim::TimelineRecording recording;
  optimizer.step();
  return framework_tiny_ops(recording);
}

}  // namespace

// The ratios below are tests/data/pytorch-2.11/framework_overhead.json's "in_tiny_ops".

TEST_CASE("an op whose input requires grad pays for recording its node; without grad it does not") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor a = engine::randn({4, 4});
  const Tensor leaf = engine::randn({4, 4}).requires_grad_(true);
  const double plain = host_tiny_ops([&] { static_cast<void>(a * a); });
  const double recorded = host_tiny_ops([&] { static_cast<void>(leaf * a); });
  CHECK(recorded - plain == doctest::Approx(0.76));
  engine::NoGradGuard no_grad;
  CHECK(host_tiny_ops([&] { static_cast<void>(leaf * a); }) == doctest::Approx(plain));
}

TEST_CASE("backward pays autograd's engine once per node it runs, and once per call") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor leaf = engine::randn({4, 4}).requires_grad_(true);
  const auto backward_framework = [&](int nodes) {
    Tensor x = leaf;
    for (int i = 0; i < nodes; ++i) x = x * 2.0;
    const Tensor loss = x.sum();
    engine::sim::TimelineRecording recording;
    loss.backward();
    return framework_tiny_ops(recording);
  };
  CHECK(backward_framework(10) - backward_framework(5) == doctest::Approx(5 * 2.01));
  // five multiplications, the sum and the leaf's AccumulateGrad, and the call itself
  CHECK(backward_framework(5) == doctest::Approx(7 * 2.01 + 8.02));
}

TEST_CASE("a leaf's AccumulateGrad runs once however many paths reach it") {
  engine::sim::use_machine("m1-8gb");
  const Tensor leaf = engine::randn({4, 4}).requires_grad_(true);
  const Tensor one_path = (leaf * 2.0).sum();
  const Tensor two_paths = (leaf * 2.0 + leaf * 3.0).sum();
  {
    engine::sim::TimelineRecording recording;
    one_path.backward();
    CHECK(launches(recording, "torch::autograd::AccumulateGrad") == 1);
  }
  leaf.set_grad(Tensor());
  engine::sim::TimelineRecording recording;
  two_paths.backward();
  CHECK(launches(recording, "torch::autograd::AccumulateGrad") == 1);
}

TEST_CASE("a leaf keeps the gradient it is handed, copying it only when something else holds it") {
  engine::sim::use_machine("m1-8gb");
  const Tensor leaf = engine::randn({4, 4}).requires_grad_(true);
  {
    engine::sim::TimelineRecording recording;
    (leaf * 2.0).sum().backward();
    CHECK(launches(recording, "aten::clone") == 0);
  }
  CHECK(leaf.grad().to_vector<float>() == std::vector<float>(16, 2.0F));
  // An addition hands both its inputs one tensor: the second leaf must not share the first's.
  const Tensor a = engine::randn({4, 4}).requires_grad_(true);
  const Tensor b = engine::randn({4, 4}).requires_grad_(true);
  engine::sim::TimelineRecording recording;
  (a + b).sum().backward();
  CHECK(launches(recording, "aten::clone") == 1);
  CHECK_FALSE(a.grad().is_same(b.grad()));
  a.grad().mul_(3.0);
  CHECK(b.grad().to_vector<float>() == std::vector<float>(16, 1.0F));
}

TEST_CASE(
    "an optimizer's step costs per parameter, Adam's far more than SGD's, and once per call") {
  engine::sim::use_machine("m1-8gb");
  const auto slope_and_call = [](auto make) {
    auto few = make(parameters_with_grads(4));
    auto many = make(parameters_with_grads(12));
    const double small = step_tiny_ops(few), large = step_tiny_ops(many);
    const double per_parameter = (large - small) / 8;
    return std::pair{per_parameter, small - 4 * per_parameter};
  };
  const auto [sgd, sgd_call] = slope_and_call(
      [](std::vector<Tensor> p) { return engine::optim::SGD(p, engine::optim::SGDOptions(0.1)); });
  const auto [adam, adam_call] = slope_and_call([](std::vector<Tensor> p) {
    return engine::optim::Adam(p, engine::optim::AdamOptions(0.1));
  });
  const auto [adamw, adamw_call] = slope_and_call([](std::vector<Tensor> p) {
    return engine::optim::AdamW(p, engine::optim::AdamWOptions(0.1));
  });
  CHECK(sgd == doctest::Approx(0.28));
  // Adam's and AdamW's measured Python, and two ops on the step counter
  CHECK(adam == doctest::Approx(7.49 + 2));
  CHECK(adamw == doctest::Approx(9.73 + 2));
  CHECK(sgd_call == doctest::Approx(8.68));
  CHECK(adam_call == doctest::Approx(20.79));
  CHECK(adamw_call == doctest::Approx(17.21));
}

TEST_CASE("zero_grad costs once per call and a little per gradient") {
  engine::sim::use_machine("m1-8gb");
  std::vector<Tensor> params = parameters_with_grads(10);
  engine::optim::SGD sgd(params, engine::optim::SGDOptions(0.1));
  engine::sim::TimelineRecording recording;
  sgd.zero_grad();
  CHECK(framework_tiny_ops(recording) == doctest::Approx(5.89 + 10 * 0.12));
  CHECK_FALSE(params.front().grad().defined());
}

TEST_CASE("a compiled graph runs as one node: its ops record and run no nodes of their own") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor leaf = engine::randn({64, 64}, engine::Device("mps")).requires_grad_(true);
  const auto model =
      engine::py::torch::compile([](const Tensor& x) { return (x * 2.0 + 1.0).sum(); });
  for (int warm = 0; warm < 2; ++warm) model(leaf).backward();  // traced and compiled
  const auto framework_of = [&](auto run) {
    engine::sim::TimelineRecording recording;
    run(leaf).backward();
    return framework_tiny_ops(recording);
  };
  const double compiled = framework_of(model);
  // backward()'s call and the leaf's AccumulateGrad remain
  CHECK(compiled == doctest::Approx(8.02 + 2.01));
  // eager: three ops record nodes, and backward runs them
  const double eager = framework_of([](const Tensor& x) { return (x * 2.0 + 1.0).sum(); });
  CHECK(eager == doctest::Approx(compiled + 3 * (0.76 + 2.01)));
}

// The whole: a training step of a tiny MLP as scripts write it (zero_grad, three linear layers
// with ReLU between them, cross_entropy, backward, SGD's step), its kernels next to nothing, so
// its host time is the framework's and the ops' fixed costs. PyTorch 2.11 measured it in tiny
// ops on the same machine as the ratios above ("tiny_mlp_step_sgd"). The engine prices what it
// models: the ops, their nodes, the calls, linear's transposed weight. It leaves out the rest,
// about a fifth: the modules' __call__ (2.83 tiny ops each), the views the products' backward
// dispatches (transpose, as_strided), and the costlier dispatch of some ops (addmm,
// threshold_backward) than of an addition.
TEST_CASE("a tiny MLP's training step costs the engine four fifths of what PyTorch 2.11 measured") {
  std::ifstream in(TUTOR_TEST_DATA_DIR "/pytorch-2.11/framework_overhead.json");
  REQUIRE(in);
  const double measured = nlohmann::json::parse(in)["in_tiny_ops"]["tiny_mlp_step_sgd"];
  engine::sim::use_machine("m1-8gb");
  namespace F = engine::nn::functional;
  std::vector<Tensor> weights, biases;
  for (int i = 0; i < 3; ++i) {
    weights.push_back(engine::randn({4, 4}).requires_grad_(true));
    biases.push_back(engine::randn({4}).requires_grad_(true));
  }
  std::vector<Tensor> params = weights;
  params.insert(params.end(), biases.begin(), biases.end());
  engine::optim::SGD sgd(params, engine::optim::SGDOptions(0.1));
  const Tensor features = engine::randn({4, 4});
  const Tensor labels = engine::zeros({4}, engine::kInt64);
  const auto step = [&] {
    sgd.zero_grad();
    Tensor x = F::linear(features, weights[0], biases[0]);
    for (int i = 1; i < 3; ++i) x = F::linear(F::relu(x), weights[i], biases[i]);
    F::cross_entropy(x, labels).backward();
    sgd.step();
  };
  step();  // the first step makes the gradients
  const double engine_tiny_ops = host_tiny_ops(step);
  MESSAGE("the engine: " << engine_tiny_ops << " tiny ops; PyTorch 2.11: " << measured);
  CHECK(engine_tiny_ops / measured > 0.7);
  CHECK(engine_tiny_ops / measured < 0.85);
}
