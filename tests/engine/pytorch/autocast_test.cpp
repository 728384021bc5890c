// torch.autocast as PyTorch 2.9 runs it (Note [Autocast's op lists]): which operations cast to
// the lower precision on each device, which go back to float32, which promote; nesting,
// enabled=false, the weight cache, the warnings for a dtype autocast does not take, and the
// trace naming each kernel's dtype.

#include "engine/autocast.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/nn/linear.h"
#include "engine/ops.h"
#include "engine/sim.h"
#include "engine/timeline.h"
#include "test_support.h"

namespace F = engine::nn::functional;
using engine::Device;
using engine::ScalarType;
using engine::Tensor;
using engine::py::torch::autocast;

namespace {

int casts_in(const engine::sim::TimelineRecording& recording) {
  int casts = 0;
  for (const engine::sim::Span& span : recording.spans())
    casts += span.name == "aten::_to_copy" && span.category == "kernel" ? 1 : 0;
  return casts;
}

}  // namespace

TEST_CASE("autocast starts off, with float16 for mps and bfloat16 for the cpu") {
  engine::sim::restart();
  CHECK_FALSE(engine::autocast::is_autocast_enabled(engine::kCPU));
  CHECK(engine::autocast::get_autocast_dtype(engine::kCPU) == engine::kBFloat16);
  CHECK(engine::autocast::get_autocast_dtype(engine::kMPS) == engine::kHalf);
}

TEST_CASE("on the cpu products run in bfloat16, losses in float32, cat promotes, the rest keep") {
  engine::sim::use_machine("linux-x86_64");
  const Tensor x = engine::randn({4, 8}), w = engine::randn({8, 8});
  const Tensor labels = engine::tensor({0, 1, 2, 3});
  {
    const autocast region("cpu");
    CHECK(engine::autocast::is_autocast_enabled(engine::kCPU));
    const Tensor low = x.matmul(w);
    CHECK(low.dtype() == engine::kBFloat16);
    CHECK(F::linear(x, w).dtype() == engine::kBFloat16);
    CHECK(engine::softmax(low, 1).dtype() == engine::kBFloat16);  // not on the cpu's lists
    CHECK(F::layer_norm(low, F::LayerNormFuncOptions({8})).dtype() == engine::kBFloat16);
    CHECK(F::cross_entropy(low, labels).dtype() == engine::kFloat32);
    CHECK(engine::cat({low, x}).dtype() == engine::kFloat32);
    CHECK(engine::relu(x).dtype() == engine::kFloat32);  // float32 inputs stay float32
    {
      const autocast off("cpu", std::nullopt, false);
      CHECK(x.matmul(w).dtype() == engine::kFloat32);
    }
    CHECK(x.matmul(w).dtype() == engine::kBFloat16);  // back on after the inner region
  }
  CHECK_FALSE(engine::autocast::is_autocast_enabled(engine::kCPU));
  CHECK(x.matmul(w).dtype() == engine::kFloat32);
}

TEST_CASE("on mps products run in float16 and softmax, layer norm, losses and sums in float32") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor x = engine::randn({4, 8}, Device("mps")), w = engine::randn({8, 8}, Device("mps"));
  const autocast region("mps");
  const Tensor low = x.matmul(w);
  CHECK(low.dtype() == engine::kHalf);
  CHECK(engine::softmax(low, 1).dtype() == engine::kFloat32);
  CHECK(F::layer_norm(low, F::LayerNormFuncOptions({8})).dtype() == engine::kFloat32);
  CHECK(low.sum().dtype() == engine::kFloat32);
  CHECK(low.mean().dtype() == engine::kHalf);  // mean is on no list
  CHECK(F::gelu(low).dtype() == engine::kHalf);
  CHECK(F::cross_entropy(low, engine::tensor({0, 1, 2, 3}).to(Device("mps"))).dtype() ==
        engine::kFloat32);
  CHECK(F::linear(x, w).dtype() == engine::kHalf);
  CHECK(engine::cat({low, x}).dtype() == engine::kFloat32);  // type promotion, no autocast
}

TEST_CASE(
    "on mps attention runs in float16, whatever its inputs' dtypes (pytorch/pytorch#141774)") {
  engine::sim::use_machine("m3-max-64gb");
  const Device mps("mps");
  const Tensor q = engine::randn({4, 4, 8}, mps), k = engine::randn({4, 4, 8}, mps);
  const Tensor v = engine::randn({4, 4, 8}, mps).to(engine::kHalf);
  const autocast region("mps");
  CHECK(engine::scaled_dot_product_attention(q, k, v).dtype() == engine::kHalf);
}

TEST_CASE("a float32 weight is cast once per autocast region, its gradient stays float32") {
  engine::sim::use_machine("m3-max-64gb");
  const engine::nn::Linear layer(8, 8);
  layer->to(Device("mps"));
  const Tensor x = engine::randn({4, 8}, Device("mps"));
  Tensor loss;
  {
    const autocast region("mps");
    const engine::sim::TimelineRecording recording;
    loss = layer(layer(x)).sum();
    // the input, the weight and the bias once each (the second layer reuses the cached weight
    // and bias), and the sum's float16 input to float32
    CHECK(casts_in(recording) == 4);
  }
  loss.backward();
  CHECK(layer->weight.grad().dtype() == engine::kFloat32);
}

TEST_CASE(
    "autocast warns and stays off for a dtype it does not take, and refuses unknown devices") {
  engine::sim::use_machine("m3-max-64gb");
  test_support::CaptureStderr warnings;
  {
    const autocast region("mps", engine::kFloat32);
    CHECK_FALSE(engine::autocast::is_autocast_enabled(engine::kMPS));
  }
  CHECK(warnings.text() ==
        "UserWarning: In MPS autocast, but the target dtype is not supported. Disabling "
        "autocast.\nMPS Autocast only supports dtypes of torch.bfloat16, torch.float16 "
        "currently.\n");
  CHECK(test_support::error_of([] { autocast("xla"); }) ==
        "User specified an unsupported autocast device_type 'xla'");
}

TEST_CASE("the trace names the dtype each kernel computes in") {
  engine::sim::use_machine("m3-max-64gb");
  const test_support::Tracing tracing;
  const Tensor x = engine::randn({4, 8}, Device("mps"));
  {
    const autocast region("mps");
    x.matmul(x.transpose(0, 1)).sum();
  }
  const auto path = test_support::scratch_file("autocast-trace.json");
  engine::sim::write_trace(path.string());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  CHECK(text.str().find(R"("name": "aten::mm", "cat": "kernel")") != std::string::npos);
  CHECK(text.str().find(R"("dtype": "float16")") != std::string::npos);
  CHECK(text.str().find(R"("dtype": "float32")") != std::string::npos);
}
