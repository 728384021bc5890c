#include "engine/nn/linear.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "engine/timeline.h"
#include "test_support.h"

using engine::Device;
using engine::IntArrayRef;
using engine::Tensor;

using test_support::error_of;

TEST_CASE("Linear registers weight (out, in) and bias (out) as its parameters") {
  engine::sim::restart();
  engine::nn::Linear layer(768, 3);
  CHECK(layer->weight.sizes() == IntArrayRef({3, 768}));
  CHECK(layer->bias.sizes() == IntArrayRef({3}));
  REQUIRE(layer->parameters().size() == 2);
  CHECK(layer->parameters()[0].is_same(layer->weight));
  CHECK(layer->named_parameters()[1].first == "bias");
}

TEST_CASE("Linear's weights stay within PyTorch's bound 1/sqrt(in_features)") {
  engine::sim::restart();
  engine::manual_seed(0);
  engine::nn::Linear layer(768, 3);
  const float bound = 1.0f / std::sqrt(768.0f);
  for (float w : layer->weight.to_vector<float>()) CHECK(std::abs(w) <= bound);
  for (float b : layer->bias.to_vector<float>()) CHECK(std::abs(b) <= bound);
}

TEST_CASE("forward computes x W^T + b for every leading dimension") {
  engine::sim::restart();
  engine::nn::Linear layer(3, 2);
  const Tensor x = engine::arange(6, engine::kFloat32).reshape({2, 3});
  const Tensor y = layer(x);
  CHECK(y.sizes() == IntArrayRef({2, 2}));
  const auto w = layer->weight.to_vector<float>(), b = layer->bias.to_vector<float>();
  const auto xs = x.to_vector<float>(), ys = y.to_vector<float>();
  for (int row = 0; row < 2; ++row) {
    for (int out = 0; out < 2; ++out) {
      float expected = b[out];
      for (int in = 0; in < 3; ++in) expected += xs[row * 3 + in] * w[out * 3 + in];
      CHECK(ys[row * 2 + out] == doctest::Approx(expected).epsilon(1e-6));
    }
  }
  CHECK(layer(engine::zeros({4, 5, 3})).sizes() == IntArrayRef({4, 5, 2}));
  CHECK(layer(engine::zeros({3})).sizes() == IntArrayRef({2}));
}

TEST_CASE("Module::to moves the parameters in place, so every handle follows") {
  engine::sim::use_machine("m3-max-64gb");
  engine::nn::Linear layer(3, 2);
  const Tensor weight_handle = layer->parameters()[0];
  const auto before = weight_handle.to_vector<float>();
  layer->to(Device("mps"));
  CHECK(weight_handle.device().str() == "mps:0");
  CHECK(weight_handle.to_vector<float>() == before);
  CHECK(layer(engine::ones({1, 3}, Device("mps"))).device().str() == "mps:0");
}

TEST_CASE("the MPS linear kernel names the argument that is on the wrong device") {
  engine::sim::use_machine("m3-max-64gb");
  engine::nn::Linear on_mps(4, 3);
  on_mps->to(Device("mps"));
  CHECK(error_of([&] {
          on_mps(engine::randn({8, 4}));
        }) == "Tensor for argument input is on cpu but expected on mps");
  engine::nn::Linear on_cpu(4, 3);
  CHECK(error_of([&] {
          on_cpu(engine::randn({8, 4}, Device("mps")));
        }) == "Tensor for argument weight is on cpu but expected on mps");
  CHECK(error_of([&] {
          engine::nn::functional::linear(engine::randn({8, 4}, Device("mps")), on_mps->weight,
                                         on_cpu->bias);
        }) == "Tensor for argument bias is on cpu but expected on mps");
}

TEST_CASE("a batch with the wrong feature size fails with PyTorch's shape message") {
  engine::sim::restart();
  engine::nn::Linear layer(3, 2);
  CHECK(error_of([&] {
          layer(engine::zeros({2, 4}));
        }) == "mat1 and mat2 shapes cannot be multiplied (2x4 and 3x2)");
  CHECK(error_of([&] {
          layer(engine::zeros({5, 2, 4}));
        }) ==  // rows folded, as addmm sees them
        "mat1 and mat2 shapes cannot be multiplied (10x4 and 3x2)");
  CHECK(error_of([&] { layer(engine::tensor(1.0)); }) ==
        "both arguments to linear need to be at least 1D, but they are 0D and 2D");
}

TEST_CASE("on mps, _mps_linear words the shape check its own way, from the last two sizes") {
  engine::sim::use_machine("m3-max-64gb");
  engine::nn::Linear layer(4, 2);
  layer->to(Device("mps"));
  CHECK(error_of([&] {
          layer(engine::zeros({3, 5}, Device("mps")));
        }) == "linear(): input and weight.T shapes cannot be multiplied (3x5 and 4x2)");
  CHECK(error_of([&] {
          layer(engine::zeros({2, 3, 5}, Device("mps")));
        }) == "linear(): input and weight.T shapes cannot be multiplied (3x5 and 4x2)");
}

TEST_CASE("Module::to moves each gradient with its parameter, so training goes on") {
  engine::sim::use_machine("m3-max-64gb");
  engine::nn::Linear layer(3, 2);
  layer(engine::ones({1, 3})).sum().backward();
  layer->to(Device("mps"));
  CHECK(layer->weight.grad().device().str() == "mps:0");
  layer(engine::ones({1, 3}, Device("mps"))).sum().backward();  // accumulates on mps
  CHECK(layer->weight.grad().to_vector<float>() == std::vector<float>(6, 2.0f));
}

namespace {

// How many times a training pass (forward and backward) of one linear layer launches or runs
// `name` on the host (a compile on first use, a device's kernel not counted).
int spans_of(const std::string& name, const char* device, bool input_requires_grad) {
  engine::sim::use_machine("m3-max-64gb");
  const Device d(device);
  const Tensor weight = engine::randn({3, 4}, d).requires_grad_(true);
  const Tensor bias = engine::zeros({3}, d).requires_grad_(true);
  const Tensor input = engine::randn({2, 4}, d).requires_grad_(input_requires_grad);
  engine::sim::TimelineRecording recording;
  engine::nn::functional::linear(input, weight, bias).sum().backward();
  int count = 0;
  for (const auto& span : recording.spans()) {
    const bool launched = span.category == "cpu" || span.category == "dispatch" ||
                          span.category == "view" || span.category == "framework";
    count += span.name == name && launched ? 1 : 0;
  }
  return count;
}

}  // namespace

TEST_CASE("backward computes an input's gradient only when the input requires one") {
  // a batch of features: only the weight's product; a hidden layer's input: both
  CHECK(spans_of("aten::mm", "cpu", false) == 1);
  CHECK(spans_of("aten::mm", "cpu", true) == 2);
  CHECK(spans_of("aten::mm", "mps", false) == 1);
}

TEST_CASE(
    "on the cpu, linear transposes the weight as a view with a node of its own; mps does not") {
  // addmm(bias, input, weight.t()): the view forward, TBackward0 recorded and run
  CHECK(spans_of("aten::t", "cpu", false) == 2);
  CHECK(spans_of("TBackward0", "cpu", false) == 2);
  CHECK(spans_of("aten::t", "mps", false) == 0);
  CHECK(spans_of("TBackward0", "mps", false) == 0);
}
