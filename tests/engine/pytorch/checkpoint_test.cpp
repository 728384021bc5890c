// torch.utils.checkpoint: the same gradients, fewer bytes held between forward and backward,
// one more forward pass of the region in the backward.

#include "engine/checkpoint.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "test_support.h"

namespace {

namespace F = engine::nn::functional;
namespace checkpointing = engine::py::torch::utils::checkpoint;
using engine::Tensor;

// Four layers of width `width`, each weight (width, width): the region a script checkpoints.
struct Block {
  std::vector<Tensor> weights;
  Tensor operator()(const std::vector<Tensor>& args) const {
    Tensor x = args.at(0);
    for (const Tensor& w : weights) x = F::gelu(F::linear(x, w));
    return x;
  }
};

Block make_block(std::int64_t width, engine::Device device) {
  Block block;
  for (int i = 0; i < 4; ++i)
    block.weights.push_back((engine::randn({width, width}, device) * 0.1).requires_grad_());
  return block;
}

// The weights' gradients after one backward through `block`, checkpointed or not; its forward
// pass under the cpu's autocast where `autocast`, the backward outside it, as a loop runs them.
std::vector<std::vector<float>> gradients(bool checkpointed, bool use_reentrant,
                                          bool autocast = false) {
  engine::manual_seed(0);
  const Block block = make_block(8, engine::Device("cpu"));
  const Tensor x = engine::randn({4, 8}).requires_grad_();
  Tensor y;
  {
    std::optional<engine::py::torch::autocast> region;
    if (autocast) region.emplace("cpu", engine::kBFloat16);
    y = checkpointed ? checkpointing::checkpoint(block, {x}, use_reentrant) : block({x});
    y = y.to(engine::kFloat);
  }
  engine::pow(y, 2).sum().backward();
  std::vector<std::vector<float>> all{x.grad().to_vector<float>()};
  for (const Tensor& w : block.weights) all.push_back(w.grad().to_vector<float>());
  return all;
}

}  // namespace

TEST_CASE("a checkpointed region gives the gradients the plain one gives, bit for bit") {
  const auto plain = gradients(false, false);
  CHECK(gradients(true, true) == plain);
  CHECK(gradients(true, false) == plain);
}

TEST_CASE("the backward recomputes a region under the autocast its forward pass ran in") {
  // backward runs outside `with torch.autocast()`; checkpoint.py keeps the forward pass's
  // autocast state and enters it again, so the recomputed products are bfloat16's, as they were
  const auto plain = gradients(false, false, true);
  CHECK(gradients(true, false, true) == plain);
  CHECK(gradients(true, true, true) == plain);
  CHECK(plain != gradients(false, false, false));  // the precision shows in the gradients
}

TEST_CASE("checkpointing holds fewer bytes until backward and spends one more forward there") {
  engine::sim::use_machine("m3-max-64gb");
  const engine::sim::ShapeOnlyGuard shape_only;
  const engine::Device mps("mps");
  const Block block = make_block(4096, mps);
  const Tensor x = engine::randn({8192, 4096}, mps).requires_grad_();
  struct Cost {
    std::int64_t held;  // bytes allocated between forward and backward
    double backward;    // seconds
  };
  const auto step = [&](bool checkpointed) {
    const Tensor y = checkpointed ? checkpointing::checkpoint(block, {x}, false) : block({x});
    const Tensor loss = y.sum();
    engine::mps::synchronize();
    const std::int64_t held = engine::py::torch::mps::current_allocated_memory();
    const double start = engine::py::time::perf_counter();
    loss.backward();
    engine::mps::synchronize();
    return Cost{held, engine::py::time::perf_counter() - start};
  };
  step(false);  // warm-up: every kernel built
  const Cost plain = step(false);
  const Cost checkpointed = step(true);
  // Without it the graph keeps each layer's input and pre-activation: 8 (8192 x 4096) floats
  // beyond x and y; with it, only the region's input.
  const std::int64_t activation = 8192LL * 4096 * 4;
  CHECK(plain.held - checkpointed.held >= 6 * activation);
  CHECK(checkpointed.backward > plain.backward * 1.2);
}

TEST_CASE("reentrant checkpointing with no input requiring grad warns, and the weights get none") {
  engine::sim::restart();
  const Block block = make_block(4, engine::Device("cpu"));
  const Tensor x = engine::randn({2, 4});  // the input of a first layer: no gradient wanted
  {
    const test_support::CaptureStderr captured;
    const Tensor y = checkpointing::checkpoint(block, {x}, true);
    CHECK(captured.text() ==
          "UserWarning: None of the inputs have requires_grad=True. Gradients will be None\n");
    CHECK_FALSE(y.requires_grad());
  }
  const Tensor y = checkpointing::checkpoint(block, {x}, false);
  y.sum().backward();
  for (const Tensor& w : block.weights) CHECK(w.grad().defined());
}
