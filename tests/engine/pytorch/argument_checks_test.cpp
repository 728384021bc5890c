// Arguments PyTorch refuses before any work starts, with the messages PyTorch 2.9 gives
// (checked against torch/nn/functional.py and ATen's argument checks).

#include <doctest/doctest.h>

#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/optim/adam.h"
#include "engine/optim/sgd.h"
#include "engine/sim.h"
#include "test_support.h"

namespace F = engine::nn::functional;
using engine::Device;
using test_support::error_of;

TEST_CASE("cross_entropy compares batch sizes first, then wants one label per row") {
  engine::sim::restart();
  const engine::Tensor logits = engine::zeros({3, 4});
  CHECK(error_of([&] { F::cross_entropy(logits, engine::zeros({5}, engine::kInt64)); }) ==
        "Expected input batch_size (3) to match target batch_size (5).");
  CHECK(error_of([&] {
          F::cross_entropy(logits, engine::zeros({3, 1}, engine::kInt64));
        }) == "0D or 1D target tensor expected, multi-target not supported");
  CHECK(error_of([&] {
          F::cross_entropy(engine::zeros({1, 4}), engine::tensor(std::int64_t{0}));
        }) == "Expected input batch_size (1) to match target batch_size (0).");
}

TEST_CASE("embedding names float indices by their legacy type, as Python's error text does") {
  engine::sim::use_machine("m3-max-64gb");
  const std::string refused =
      "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ";
  CHECK(error_of([] {
          F::embedding(engine::zeros({2}), engine::randn({5, 3}));
        }) == refused + "torch.FloatTensor instead (while checking arguments for embedding)");
  CHECK(error_of([] {
          F::embedding(engine::zeros({2}, Device("mps")), engine::randn({5, 3}, Device("mps")));
        }) == refused + "MPSFloatType instead (while checking arguments for embedding)");
}

TEST_CASE("dropout's probability is printed as Python prints a float") {
  engine::sim::restart();
  CHECK(error_of([] { F::dropout(engine::ones({2}), F::DropoutFuncOptions().p(1.5)); }) ==
        "dropout probability has to be between 0 and 1, but got 1.5");
  CHECK(error_of([] { F::dropout(engine::ones({2}), F::DropoutFuncOptions().p(-0.1)); }) ==
        "dropout probability has to be between 0 and 1, but got -0.1");
}

TEST_CASE("optimizers refuse the hyperparameters torch.optim refuses, in its order and words") {
  engine::sim::restart();
  const std::vector<engine::Tensor> params{engine::zeros({2}, engine::requires_grad())};
  using engine::optim::AdamOptions;
  using engine::optim::SGDOptions;
  CHECK(error_of([&] { engine::optim::SGD(params, SGDOptions(-0.1)); }) ==
        "Invalid learning rate: -0.1");
  CHECK(error_of([&] { engine::optim::SGD(params, SGDOptions(0.1).momentum(-1)); }) ==
        "Invalid momentum value: -1.0");
  CHECK(error_of([&] { engine::optim::SGD(params, SGDOptions(0.1).weight_decay(-1)); }) ==
        "Invalid weight_decay value: -1.0");
  CHECK(error_of([&] { engine::optim::SGD(params, SGDOptions(0.1).nesterov(true)); }) ==
        "Nesterov momentum requires a momentum and zero dampening");
  CHECK(error_of([&] { engine::optim::SGD({}, SGDOptions(0.1)); }) ==
        "optimizer got an empty parameter list");
  CHECK(error_of([&] { engine::optim::SGD({}, SGDOptions(-1)); }) ==
        "Invalid learning rate: -1.0");  // checked first
  CHECK(error_of([&] {
          engine::optim::Adam(params, AdamOptions(1e-3).betas({1.0, 0.999}));
        }) == "Invalid beta parameter at index 0: 1.0");
  CHECK(error_of([&] {
          engine::optim::Adam(params, AdamOptions(1e-3).betas({0.9, -0.1}));
        }) == "Invalid beta parameter at index 1: -0.1");
  CHECK(error_of([&] {
          engine::optim::AdamW(params, engine::optim::AdamWOptions(1e-3).eps(-1));
        }) == "Invalid epsilon value: -1.0");
  CHECK(error_of([&] { engine::optim::Adam(params, AdamOptions(1e-3)); }) == "no error");
}
