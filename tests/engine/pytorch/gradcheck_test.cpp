// Every differentiable operation's gradient against central finite differences, the way
// torch.autograd.gradcheck checks PyTorch's. In float32 the difference quotient is good to
// about 1e-3, so the comparison allows that much.

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "engine/autograd.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/random.h"
#include "engine/sim.h"

using engine::Tensor;

namespace {

using Function = std::function<Tensor(const std::vector<Tensor>&)>;

// The scalar the check differentiates: a fixed random weighting of every output element, so
// each output's gradient matters.
double weighted(const Tensor& out, const std::vector<float>& weights) {
  const std::vector<float> v = out.to_vector<float>();
  double total = 0;
  for (std::size_t i = 0; i < v.size(); ++i) total += static_cast<double>(v[i]) * weights[i];
  return total;
}

void check_gradients(const Function& f, std::vector<Tensor> inputs) {
  engine::manual_seed(123);
  const Tensor probe = f(inputs);
  const Tensor weights_tensor = engine::randn(probe.sizes());
  const std::vector<float> weights = weights_tensor.to_vector<float>();

  for (Tensor& input : inputs) input.set_requires_grad(true);
  Tensor loss = (f(inputs) * weights_tensor.to(probe.device())).sum();
  loss.backward();

  constexpr float kStep = 1e-2f;
  for (std::size_t which = 0; which < inputs.size(); ++which) {
    CAPTURE(which);
    const std::vector<float> analytic = inputs[which].grad().to_vector<float>();
    float* values = inputs[which].cpu().data_ptr<float>();  // the inputs live on the cpu
    for (std::int64_t i = 0; i < inputs[which].numel(); ++i) {
      CAPTURE(i);
      const float original = values[i];
      engine::NoGradGuard no_grad;
      values[i] = original + kStep;
      const double up = weighted(f(inputs), weights);
      values[i] = original - kStep;
      const double down = weighted(f(inputs), weights);
      values[i] = original;
      const double numeric = (up - down) / (2 * kStep);
      CHECK(analytic[static_cast<std::size_t>(i)] ==
            doctest::Approx(numeric).epsilon(2e-3).scale(1.0));
    }
  }
}

// Away from 0, where relu has its kink and finite differences would straddle it.
Tensor away_from_zero(engine::IntArrayRef sizes) {
  Tensor x = engine::randn(sizes);
  float* v = x.data_ptr<float>();
  for (std::int64_t i = 0; i < x.numel(); ++i) v[i] += v[i] >= 0 ? 0.2f : -0.2f;
  return x;
}

}  // namespace

TEST_CASE("gradients of add, sub, mul and div match finite differences, with broadcasting") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(0);
  check_gradients([](const auto& x) { return x[0] + x[1]; },
                  {engine::randn({2, 3}), engine::randn({3})});
  check_gradients([](const auto& x) { return x[0] - x[1]; },
                  {engine::randn({2, 1}), engine::randn({2, 3})});
  check_gradients([](const auto& x) { return x[0] * x[1]; },
                  {engine::randn({2, 3}), engine::randn({2, 3})});
  check_gradients([](const auto& x) { return x[0] / (x[1] * x[1] + 1.0); },
                  {engine::randn({4}), engine::randn({4})});
}

TEST_CASE("gradients of operations with a scalar and of negation match finite differences") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(1);
  check_gradients([](const auto& x) { return x[0] * 3.0 + 1.5; }, {engine::randn({5})});
  check_gradients([](const auto& x) { return 2.0 - x[0] / 4.0; }, {engine::randn({5})});
  check_gradients([](const auto& x) { return 1.0 / (x[0] * x[0] + 1.0); }, {engine::randn({5})});
  check_gradients([](const auto& x) { return -x[0]; }, {engine::randn({5})});
}

TEST_CASE("gradients of relu, sum and mean match finite differences") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(2);
  check_gradients([](const auto& x) { return engine::relu(x[0]); }, {away_from_zero({3, 4})});
  check_gradients([](const auto& x) { return x[0].sum({1}); }, {engine::randn({3, 4})});
  check_gradients([](const auto& x) { return x[0].sum(); }, {engine::randn({3, 4})});
  check_gradients(
      [](const auto& x) {
        return x[0].mean({0, 2}, true);
      },
      {engine::randn({2, 3, 4})});
  check_gradients([](const auto& x) { return x[0].mean(); }, {engine::randn({2, 3})});
}

TEST_CASE("gradients of matmul match finite differences for matrices, vectors and batches") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(3);
  check_gradients([](const auto& x) { return x[0].matmul(x[1]); },
                  {engine::randn({2, 3}), engine::randn({3, 4})});
  check_gradients([](const auto& x) { return x[0].matmul(x[1]); },
                  {engine::randn({3}), engine::randn({3, 2})});
  check_gradients([](const auto& x) { return x[0].matmul(x[1]); },
                  {engine::randn({2, 3}), engine::randn({3})});
  check_gradients([](const auto& x) { return x[0].matmul(x[1]); },
                  {engine::randn({3}), engine::randn({3})});
  check_gradients([](const auto& x) { return x[0].matmul(x[1]); },
                  {engine::randn({2, 2, 3}), engine::randn({3, 2})});
  check_gradients([](const auto& x) { return x[0].matmul(x[1]); },
                  {engine::randn({2, 1, 2, 3}), engine::randn({3, 3, 2})});
}

TEST_CASE("gradients of linear match finite differences, with and without bias") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(4);
  namespace F = engine::nn::functional;
  check_gradients([](const auto& x) { return F::linear(x[0], x[1], x[2]); },
                  {engine::randn({4, 5}), engine::randn({3, 5}), engine::randn({3})});
  check_gradients([](const auto& x) { return F::linear(x[0], x[1]); },
                  {engine::randn({2, 2, 5}), engine::randn({3, 5})});
}

TEST_CASE("gradients of log_softmax, nll_loss and cross_entropy match finite differences") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(5);
  namespace F = engine::nn::functional;
  const Tensor labels = engine::tensor({0, 2, 1, 0});
  check_gradients([](const auto& x) { return engine::log_softmax(x[0], 1); },
                  {engine::randn({3, 4})});
  check_gradients([](const auto& x) { return engine::log_softmax(x[0], 0); },
                  {engine::randn({3, 4})});
  check_gradients([&](const auto& x) { return F::nll_loss(engine::log_softmax(x[0], 1), labels); },
                  {engine::randn({4, 3})});
  check_gradients([&](const auto& x) { return F::cross_entropy(x[0], labels); },
                  {engine::randn({4, 3})});
}

TEST_CASE("gradients flow through reshape, slice, transpose, clone and to()") {
  engine::sim::use_machine("m3-max-64gb");
  engine::manual_seed(6);
  check_gradients(
      [](const auto& x) {
        return x[0].reshape({3, 2}) * 2.0;
      },
      {engine::randn({2, 3})});
  check_gradients([](const auto& x) { return x[0].slice(0, 1, 3); }, {engine::randn({4, 2})});
  check_gradients([](const auto& x) { return x[0].slice(1, -2, 100); }, {engine::randn({2, 4})});
  check_gradients([](const auto& x) { return x[0].transpose(0, 1).matmul(x[0]); },
                  {engine::randn({3, 2})});
  check_gradients([](const auto& x) { return x[0].transpose(0, 2); }, {engine::randn({2, 3, 4})});
  check_gradients([](const auto& x) { return x[0].clone() * x[0]; }, {engine::randn({3})});
  check_gradients([](const auto& x) { return x[0].to(engine::Device("mps")) * 3.0; },
                  {engine::randn({3})});
}

TEST_CASE("gradients of softmax, gelu, tanh, pow and layer_norm match finite differences") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(7);
  namespace F = engine::nn::functional;
  check_gradients([](const auto& x) { return engine::softmax(x[0], -1); }, {engine::randn({3, 4})});
  check_gradients([](const auto& x) { return engine::softmax(x[0], 0); }, {engine::randn({3, 4})});
  check_gradients([](const auto& x) { return F::gelu(x[0]); }, {engine::randn({6})});
  check_gradients([](const auto& x) { return engine::tanh(x[0]); }, {engine::randn({6})});
  check_gradients([](const auto& x) { return engine::pow(x[0], 3); }, {engine::randn({6})});
  check_gradients([](const auto& x) { return engine::pow(x[0] * x[0] + 0.5, 1.5); },
                  {engine::randn({6})});
  check_gradients(
      [](const auto& x) {
        return F::layer_norm(x[0], F::LayerNormFuncOptions({4}).weight(x[1]).bias(x[2]));
      },
      {engine::randn({3, 4}), engine::randn({4}), engine::randn({4})});
  check_gradients(
      [](const auto& x) {
        return F::layer_norm(x[0], F::LayerNormFuncOptions({2, 3}));
      },
      {engine::randn({2, 2, 3})});
}

TEST_CASE(
    "gradients of embedding, embedding_bag, dropout and causal attention match finite differences") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(8);
  namespace F = engine::nn::functional;
  const Tensor tokens = engine::tensor({3, 0, 3, 1});
  check_gradients([&](const auto& x) { return F::embedding(tokens, x[0]); },
                  {engine::randn({5, 2})});
  const Tensor bags = tokens.reshape({2, 2});
  check_gradients([&](const auto& x) { return F::embedding_bag(bags, x[0]); },
                  {engine::randn({5, 2})});
  check_gradients(
      [&](const auto& x) {
        return F::embedding_bag(bags, x[0], F::EmbeddingBagFuncOptions().mode(engine::kSum));
      },
      {engine::randn({5, 2})});
  check_gradients(
      [](const auto& x) {
        engine::manual_seed(99);  // the same mask for every evaluation
        return F::dropout(x[0], F::DropoutFuncOptions().p(0.3).training(true));
      },
      {engine::randn({4, 3})});
  check_gradients(
      [](const auto& x) {
        return engine::scaled_dot_product_attention(x[0], x[1], x[2], {}, 0.0, true);
      },
      {engine::randn({2, 3, 4}), engine::randn({2, 3, 4}), engine::randn({2, 3, 4})});
}
