// The course's classifier step against real PyTorch (tests/data/torch_training_step.txt, written
// by tests/tools/make_torch_training_reference.py with Debian's python3-torch): the same seeds
// give the same weights and batches bit for bit (random_test.cpp), and then the losses,
// gradients and updates of SGD, SGD with momentum and Adam must agree to 1e-6 relative.

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "engine/factories.h"
#include "engine/nn/activation.h"
#include "engine/nn/functional.h"
#include "engine/nn/linear.h"
#include "engine/nn/sequential.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/optim/sgd.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "test_support.h"

using engine::Tensor;
namespace F = engine::nn::functional;

namespace {

using Values = std::map<std::string, std::vector<double>>;

test_support::ReferenceValues load_reference() {
  const test_support::ReferenceValues all =
      test_support::load_reference(TUTOR_TEST_DATA_DIR "/torch_training_step.txt");
  REQUIRE(all.size() == 3);
  return all;
}

double norm(const Tensor& t) {
  double total = 0;
  for (float v : t.to_vector<float>()) total += static_cast<double>(v) * v;
  return std::sqrt(total);
}

void check_close(const std::vector<double>& engine, const std::vector<double>& torch) {
  REQUIRE(engine.size() == torch.size());
  for (std::size_t i = 0; i < torch.size(); ++i) {
    CAPTURE(i);
    CHECK(engine[i] == doctest::Approx(torch[i]).epsilon(1e-6).scale(0.0));
  }
}

struct Classifier {
  engine::nn::Linear model;
  Tensor vectors;
};

// The seed lesson's order: the model first, then the batch, from the same generator.
Classifier setup(int seed) {
  engine::sim::use_machine("linux-x86_64");  // the x86 AVX2 kernels the reference ran
  engine::manual_seed(static_cast<std::uint64_t>(seed));
  engine::nn::Linear model(768, 3);
  Tensor vectors = engine::randn({32, 128, 768}).mean({1});
  return {model, vectors};
}

const Tensor& labels() {
  static const Tensor four = engine::tensor({0, 2, 1, 0});
  return four;
}

template <typename Optimizer>
std::vector<double> three_steps(Classifier& c, Optimizer& optimizer) {
  std::vector<double> losses;
  for (int step = 0; step < 3; ++step) {
    optimizer.zero_grad();
    const Tensor loss = F::cross_entropy(c.model(c.vectors.slice(0, 0, 4)), labels());
    loss.backward();
    optimizer.step();
    losses.push_back(loss.item<double>());
  }
  const Tensor final_loss = F::cross_entropy(c.model(c.vectors.slice(0, 0, 4)), labels());
  losses.push_back(final_loss.item<double>());
  return losses;
}

}  // namespace

TEST_CASE("one SGD step of the seed's classifier matches PyTorch: loss, gradients, update") {
  for (const auto& entry : load_reference()) {
    const int seed = entry.first;
    const Values& torch = entry.second;
    CAPTURE(seed);
    Classifier c = setup(seed);
    const Tensor weight_before = c.model->weight.detach().clone();
    const Tensor bias_before = c.model->bias.detach().clone();
    engine::optim::SGD optimizer(c.model->parameters(), engine::optim::SGDOptions(0.1));
    optimizer.zero_grad();
    const Tensor loss = F::cross_entropy(c.model(c.vectors.slice(0, 0, 4)), labels());
    loss.backward();
    check_close({loss.item<double>()}, torch.at("loss"));
    check_close({norm(c.model->weight.grad())}, torch.at("weight_grad_norm"));
    const std::vector<float> bias_grad = c.model->bias.grad().to_vector<float>();
    check_close({bias_grad.begin(), bias_grad.end()}, torch.at("bias_grad"));
    optimizer.step();
    check_close({norm(c.model->weight.detach() - weight_before)}, torch.at("weight_delta_norm"));
    const std::vector<float> bias_delta = (c.model->bias.detach() - bias_before).to_vector<float>();
    check_close({bias_delta.begin(), bias_delta.end()}, torch.at("bias_delta"));
    const Tensor after = F::cross_entropy(c.model(c.vectors.slice(0, 0, 4)), labels());
    check_close({after.item<double>()}, torch.at("loss_after_step"));
  }
}

TEST_CASE("three steps of SGD with momentum and of Adam match PyTorch") {
  for (const auto& entry : load_reference()) {
    const int seed = entry.first;
    const Values& torch = entry.second;
    CAPTURE(seed);
    Classifier c = setup(seed);
    engine::optim::SGD sgd(c.model->parameters(), engine::optim::SGDOptions(0.1).momentum(0.9));
    check_close(three_steps(c, sgd), torch.at("sgd_momentum_losses"));
    check_close({norm(c.model->weight)}, torch.at("sgd_momentum_weight_norm"));

    Classifier d = setup(seed);
    engine::optim::Adam adam(d.model->parameters(), engine::optim::AdamOptions(0.01));
    check_close(three_steps(d, adam), torch.at("adam_losses"));
    check_close({norm(d.model->weight)}, torch.at("adam_weight_norm"));
  }
}

TEST_CASE("a two-layer MLP trained with Adam matches PyTorch") {
  for (const auto& entry : load_reference()) {
    const int seed = entry.first;
    const Values& torch = entry.second;
    CAPTURE(seed);
    engine::sim::use_machine("linux-x86_64");
    engine::manual_seed(static_cast<std::uint64_t>(seed));
    // Braces: a braced list constructs its elements left to right, as Python does; with
    // parentheses C++ leaves the order open and GCC builds the last layer first.
    engine::nn::Sequential mlp{engine::nn::Linear(768, 64), engine::nn::ReLU(),
                               engine::nn::Linear(64, 3)};
    const Tensor vectors = engine::randn({32, 128, 768}).mean({1});
    Tensor targets = engine::zeros({32}, engine::kInt64);  // arange(32) % 3
    for (std::int64_t i = 0; i < 32; ++i) targets.data_ptr<std::int64_t>()[i] = i % 3;
    engine::optim::Adam adam(mlp->parameters(), engine::optim::AdamOptions(0.01));
    std::vector<double> losses;
    for (int step = 0; step < 3; ++step) {
      adam.zero_grad();
      const Tensor loss = F::cross_entropy(mlp(vectors), targets);
      loss.backward();
      adam.step();
      losses.push_back(loss.item<double>());
    }
    check_close(losses, torch.at("mlp_adam_losses"));
  }
}
