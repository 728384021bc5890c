// The image operators against real PyTorch (tests/data/torch_cnn_step.txt, written by
// tests/tools/make_torch_cnn_reference.py): convolutions with stride, padding and bias, batch
// norm in training (its running statistics too), max pooling and adaptive average pooling, their
// gradients, and three SGD steps must agree to 1e-5 on the cpu and on the simulated GPU (whose
// matrix products add in another order; its adaptive pooling only takes sizes that divide, so
// seeds 0 and 1, whose windows are uneven, run on the cpu alone). Then their errors and autograd
// nodes, as PyTorch's.

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/optim/sgd.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "test_support.h"

using engine::Tensor;
namespace F = engine::nn::functional;

namespace {

// Drawn in the reference's order, so the same seed gives the same values.
std::map<std::string, Tensor> make_parameters(engine::Device device) {
  std::map<std::string, Tensor> p;
  for (const auto& [name, shape, scale] :
       std::vector<std::tuple<std::string, std::vector<std::int64_t>, double>>{
           {"conv1", {4, 3, 3, 3}, 0.3},
           {"conv1_b", {4}, 0.1},
           {"bn1_w", {4}, 0.1},
           {"bn1_b", {4}, 0.1},
           {"conv2", {5, 4, 3, 3}, 0.3},
           {"bn2_w", {5}, 0.1},
           {"bn2_b", {5}, 0.1},
           {"fc", {3, 20}, 0.3},
           {"fc_b", {3}, 0.1}}) {
    p[name] = (engine::randn(shape) * scale).to(device).requires_grad_();
  }
  return p;
}

Tensor loss_of(std::map<std::string, Tensor>& p, std::map<std::string, Tensor>& stats,
               const Tensor& x, const Tensor& targets) {
  auto bn = [&](const Tensor& h, const char* m, const char* v, const char* w, const char* b) {
    return F::relu(
        F::batch_norm(h, stats[m], stats[v],
                      F::BatchNormFuncOptions().weight(p[w] + 1.0).bias(p[b]).training(true)));
  };
  Tensor h = F::conv2d(x, p["conv1"], F::Conv2dFuncOptions().bias(p["conv1_b"]).padding(1));
  h = bn(h, "m1", "v1", "bn1_w", "bn1_b");
  h = F::max_pool2d(h, F::MaxPool2dFuncOptions(3).stride(2).padding(1));
  h = F::conv2d(h, p["conv2"], F::Conv2dFuncOptions().stride(2).padding(1));
  h = bn(h, "m2", "v2", "bn2_w", "bn2_b");
  const Tensor logits =
      F::linear(F::adaptive_avg_pool2d(h, F::AdaptiveAvgPool2dFuncOptions({2, 2})).reshape({2, 20}),
                p["fc"], p["fc_b"]);
  const Tensor pooled =
      F::adaptive_avg_pool2d(h, F::AdaptiveAvgPool2dFuncOptions(1)).reshape({2, 5});
  return F::cross_entropy(logits, targets) + F::cross_entropy(pooled.slice(1, 0, 3), targets);
}

double sum(const Tensor& t) { return t.to(engine::kCPU).sum().item<double>(); }
double abs_sum(const Tensor& t) {
  const Tensor c = t.to(engine::kCPU);
  double total = 0;
  for (std::int64_t i = 0; i < c.numel(); ++i) total += std::abs(c.data_ptr<float>()[i]);
  return total;
}

}  // namespace

TEST_CASE("a tiny CNN trained with SGD matches PyTorch, on the cpu and on mps") {
  const test_support::ReferenceValues reference =
      test_support::load_reference(TUTOR_TEST_DATA_DIR "/torch_cnn_step.txt");
  REQUIRE(reference.size() == 4);
  for (const char* device_name : {"cpu", "mps"}) {
    for (const auto& entry : reference) {
      const int seed = entry.first;
      const std::int64_t side = seed < 2 ? 9 : 13;
      if (side == 9 && std::string(device_name) == "mps") continue;
      CAPTURE(seed);
      CAPTURE(device_name);
      engine::sim::use_machine("m3-max-64gb");
      const engine::Device device(device_name);
      engine::manual_seed(static_cast<std::uint64_t>(seed));
      std::map<std::string, Tensor> p = make_parameters(device);
      const Tensor x = engine::randn({2, 3, side, side}).to(device).requires_grad_();
      Tensor targets = engine::zeros({2}, engine::kInt64);
      targets.data_ptr<std::int64_t>()[1] = 2;
      targets = targets.to(device);
      std::map<std::string, Tensor> stats{{"m1", engine::zeros({4}).to(device)},
                                          {"v1", engine::ones({4}).to(device)},
                                          {"m2", engine::zeros({5}).to(device)},
                                          {"v2", engine::ones({5}).to(device)}};
      std::vector<Tensor> params;
      for (auto& [name, tensor] : p) params.push_back(tensor);
      engine::optim::SGD optimizer(params, engine::optim::SGDOptions(0.1).momentum(0.9));
      const std::map<std::string, std::vector<double>>& torch = entry.second;
      std::vector<double> losses;
      for (int step = 0; step < 3; ++step) {
        optimizer.zero_grad();
        const Tensor loss = loss_of(p, stats, x, targets);
        loss.backward();
        if (step == 0) {
          const std::vector<double>& grads = torch.at("grad_sums");
          CHECK(sum(x.grad()) == doctest::Approx(grads[0]).epsilon(1e-5));
          CHECK(abs_sum(x.grad()) == doctest::Approx(grads[1]).epsilon(1e-5));
          CHECK(sum(p["conv1"].grad()) == doctest::Approx(grads[2]).epsilon(1e-5));
          CHECK(abs_sum(p["conv2"].grad()) == doctest::Approx(grads[3]).epsilon(1e-5));
          CHECK(sum(p["bn1_w"].grad()) == doctest::Approx(grads[4]).epsilon(1e-4));
          // a bias before batch norm gets no gradient: only rounding is left, in both
          CHECK(std::abs(sum(p["conv1_b"].grad())) < 1e-6);
        }
        optimizer.step();
        losses.push_back(loss.item<double>());
      }
      for (std::size_t i = 0; i < losses.size(); ++i)
        CHECK(losses[i] == doctest::Approx(torch.at("losses")[i]).epsilon(1e-5));
      const std::vector<double>& running = torch.at("running");
      CHECK(sum(stats["m1"]) == doctest::Approx(running[0]).epsilon(1e-5));
      CHECK(sum(stats["v1"]) == doctest::Approx(running[1]).epsilon(1e-5));
      CHECK(sum(stats["m2"]) == doctest::Approx(running[2]).epsilon(1e-5));
      CHECK(sum(stats["v2"]) == doctest::Approx(running[3]).epsilon(1e-5));
    }
  }
}

TEST_CASE("the image operators name their autograd nodes and refuse bad shapes as PyTorch does") {
  engine::sim::use_machine("linux-x86_64");
  const Tensor x = engine::randn({2, 3, 8, 8}).requires_grad_();
  const Tensor w = engine::randn({4, 3, 3, 3}).requires_grad_();
  CHECK(F::conv2d(x, w, F::Conv2dFuncOptions().padding(1)).grad_fn()->name() ==
        "ConvolutionBackward0");
  const Tensor rm = engine::zeros({3}), rv = engine::ones({3});
  CHECK(F::batch_norm(x, rm, rv, F::BatchNormFuncOptions().training(true)).grad_fn()->name() ==
        "NativeBatchNormBackward0");
  CHECK(F::max_pool2d(x, F::MaxPool2dFuncOptions(3).stride(2).padding(1)).grad_fn()->name() ==
        "MaxPool2DWithIndicesBackward0");
  CHECK(F::adaptive_avg_pool2d(x, F::AdaptiveAvgPool2dFuncOptions(1)).grad_fn()->name() ==
        "MeanBackward1");
  CHECK(F::adaptive_avg_pool2d(x, F::AdaptiveAvgPool2dFuncOptions({2, 2})).grad_fn()->name() ==
        "AdaptiveAvgPool2DBackward0");
  // texts from PyTorch 1.13's torch.nn.functional, run on the same calls
  CHECK_THROWS_WITH(F::conv2d(x, engine::randn({4, 2, 3, 3})),
                    "Given groups=1, weight of size [4, 2, 3, 3], expected input[2, 3, 8, 8] to "
                    "have 2 channels, but got 3 channels instead");
  CHECK_THROWS_WITH(F::conv2d(engine::randn({3, 8}), w),
                    "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of "
                    "size: [3, 8]");
  CHECK_THROWS_WITH(F::max_pool2d(x, F::MaxPool2dFuncOptions(3).stride(2).padding(2)),
                    "pad should be at most half of kernel size, but got pad=2 and kernel_size=3");
  CHECK_THROWS_WITH(F::max_pool2d(engine::randn({1, 1, 2, 2}), F::MaxPool2dFuncOptions(3)),
                    "Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is "
                    "too small");
  CHECK_THROWS_WITH(F::batch_norm(x, Tensor(), Tensor()),
                    "running_mean must be defined in evaluation mode");
  CHECK_THROWS_WITH(F::batch_norm(x, engine::zeros({4}), engine::ones({4})),
                    "running_mean should contain 3 elements not 4");
  CHECK_THROWS_WITH(
      F::batch_norm(engine::randn({1, 3}), Tensor(), Tensor(),
                    F::BatchNormFuncOptions().training(true)),
      "Expected more than 1 value per channel when training, got input size torch.Size([1, 3])");
}

TEST_CASE("a convolution's input and weight on different devices is refused with PyTorch's text") {
  engine::sim::use_machine("m1-8gb");
  const Tensor x = engine::randn({1, 3, 8, 8}).to(engine::kMPS);
  const Tensor w = engine::randn({4, 3, 3, 3});
  CHECK_THROWS_WITH(
      F::conv2d(x, w),
      "Input type (MPSFloatType) and weight type (torch.FloatTensor) should be the same");
}

TEST_CASE(
    "on mps, adaptive average pooling refuses sizes that do not divide, as PyTorch 2.9 does") {
  engine::sim::use_machine("m1-8gb");
  const auto pool = [](std::int64_t side, engine::Device device, std::int64_t out) {
    return F::adaptive_avg_pool2d(engine::randn({1, 2, side, side}).to(device),
                                  F::AdaptiveAvgPool2dFuncOptions(out));
  };
  CHECK(pool(14, engine::kMPS, 7).sizes().vec() == std::vector<std::int64_t>{1, 2, 7, 7});
  CHECK(pool(1, engine::kMPS, 7).sizes().vec() == std::vector<std::int64_t>{1, 2, 7, 7});
  CHECK(pool(3, engine::kCPU, 7).sizes().vec() == std::vector<std::int64_t>{1, 2, 7, 7});
  CHECK_THROWS_AS(pool(3, engine::kMPS, 7), engine::NotImplementedError);
  CHECK_THROWS_WITH(pool(3, engine::kMPS, 7),
                    doctest::Contains("Adaptive pool MPS: output sizes must be divisible by input "
                                      "sizes. Non-divisible input sizes are not implemented"));
  CHECK_THROWS_WITH(pool(8, engine::kMPS, 7),
                    doctest::Contains("Adaptive pool MPS: input sizes must be divisible by output "
                                      "sizes."));
  CHECK_THROWS_WITH(
      F::adaptive_avg_pool2d(engine::randn({1, 2, 8, 4}).to(engine::kMPS),
                             F::AdaptiveAvgPool2dFuncOptions(6)),
      "Adaptive pool MPS: Input height and width must both be greater than, or equal to, or "
      "lesser than output height and width");
}
