#include "engine/autograd.h"

#include <doctest/doctest.h>

#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/nn/linear.h"
#include "engine/ops.h"
#include "engine/sim.h"
#include "test_support.h"

using engine::Device;
using engine::Tensor;

using test_support::error_of;

TEST_CASE("backward fills the gradient of every leaf that requires grad, and only those") {
  engine::sim::restart();
  Tensor w = engine::tensor({1.0, 2.0, 3.0}, engine::requires_grad());
  const Tensor x = engine::tensor({4.0, 5.0, 6.0});
  const Tensor loss = (w * x).sum();
  CHECK(loss.requires_grad());
  CHECK_FALSE(loss.is_leaf());
  loss.backward();
  CHECK(w.grad().to_vector<float>() == std::vector<float>{4, 5, 6});
  CHECK_FALSE(x.grad().defined());
}

TEST_CASE("gradients accumulate over backward calls until they are reset") {
  engine::sim::restart();
  Tensor w = engine::ones({2}, engine::requires_grad());
  (w * 3.0).sum().backward();
  (w * 3.0).sum().backward();
  CHECK(w.grad().to_vector<float>() == std::vector<float>{6, 6});
  w.set_grad(Tensor());
  CHECK_FALSE(w.grad().defined());
}

TEST_CASE("a value used twice receives the sum of both gradients") {
  engine::sim::restart();
  Tensor x = engine::tensor({3.0}, engine::requires_grad());
  (x * x + x).sum().backward();  // d/dx (x^2 + x) = 2x + 1
  CHECK(x.grad().to_vector<float>() == std::vector<float>{7});
}

TEST_CASE("nodes carry PyTorch's names") {
  engine::sim::restart();
  Tensor w = engine::ones({2, 3}, engine::requires_grad());
  CHECK((w * 2.0).grad_fn()->name() == "MulBackward0");  // Python's name for t * 2
  CHECK((2.0 - w).grad_fn()->name() == "RsubBackward1");
  CHECK((w * w).grad_fn()->name() == "MulBackward0");
  CHECK(w.sum().grad_fn()->name() == "SumBackward0");
  CHECK(w.mean({1}).grad_fn()->name() == "MeanBackward1");
  engine::nn::Linear layer(3, 2);
  CHECK(layer(w).grad_fn()->name() == "AddmmBackward0");
  // at::native::linear's other routes on the cpu, and mps's own linear kernel.
  CHECK(layer(engine::ones({4, 2, 3}, engine::requires_grad())).grad_fn()->name() ==
        "ViewBackward0");
  CHECK(layer(engine::ones({3}, engine::requires_grad())).grad_fn()->name() == "ViewBackward0");
  const auto no_bias = [&](const Tensor& x) {
    return engine::nn::functional::linear(x, layer->weight, Tensor());
  };
  CHECK(no_bias(w).grad_fn()->name() == "MmBackward0");
  CHECK(no_bias(engine::ones({4, 2, 3})).grad_fn()->name() == "UnsafeViewBackward0");
  CHECK(no_bias(engine::ones({3})).grad_fn()->name() == "SqueezeBackward4");
  CHECK(engine::nn::functional::dropout(
            w, engine::nn::functional::DropoutFuncOptions().p(0.5).training(true))
            .grad_fn()
            ->name() == "MulBackward0");
  const Tensor loss = engine::nn::functional::cross_entropy(layer(w), engine::tensor({0, 1}));
  CHECK(loss.grad_fn()->name() == "NllLossBackward0");
  CHECK(w.grad_fn() == nullptr);
}

TEST_CASE("backward refuses what PyTorch refuses, with its messages") {
  engine::sim::restart();
  CHECK(error_of([] { engine::ones({2}).sum().backward(); }) ==
        "element 0 of tensors does not require grad and does not have a grad_fn");
  CHECK(error_of([] { (engine::ones({2}, engine::requires_grad()) * 2.0).backward(); }) ==
        "grad can be implicitly created only for scalar outputs");
  CHECK(error_of([] { engine::ones({2}, engine::kInt64).set_requires_grad(true); }) ==
        "only Tensors of floating point dtype can require gradients");
  // A factory's requires_grad=True goes through AutogradMeta, which words it differently.
  CHECK(error_of([] {
          engine::ones({2}, engine::TensorOptions().dtype(engine::kInt64).requires_grad(true));
        }) == "Only Tensors of floating point and complex dtype can require gradients");
  const Tensor computed = engine::ones({2}, engine::requires_grad()) * 2.0;
  CHECK(error_of([&] { Tensor(computed).set_requires_grad(true); }) ==
        "no error");  // it already does
  CHECK(
      error_of([&] { Tensor(computed).set_requires_grad(false); }) ==
      "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
      "subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  CHECK(error_of([] { engine::ones({2}, engine::requires_grad()).add_(engine::ones({2})); }) ==
        "a leaf Variable that requires grad is being used in an in-place operation.");
}

TEST_CASE("on mps a Linear is one node of its own kernel") {
  engine::sim::use_machine("m3-max-64gb");
  engine::nn::Linear layer(3, 2);
  layer->to(engine::Device("mps"));
  CHECK(layer(engine::ones({4, 2, 3}, engine::Device("mps"))).grad_fn()->name() ==
        "LinearBackward0");
}

TEST_CASE("a graph is freed by backward, so a second backward through it fails") {
  engine::sim::restart();
  Tensor x = engine::ones({2}, engine::requires_grad());
  const Tensor y = (x * 2.0).sum();  // mul saves the wrapped 2.0, a tensor
  y.backward();
  CHECK(error_of([&] {
          y.backward();
        }).rfind("Trying to backward through the graph a second time", 0) == 0);
}

TEST_CASE("a graph whose nodes saved only sizes and scalars runs backward again, accumulating") {
  engine::sim::restart();
  Tensor x = engine::ones({3}, engine::requires_grad());
  const Tensor total = x.sum();
  total.backward();
  total.backward();
  CHECK(x.grad().to_vector<float>() == std::vector<float>{2, 2, 2});
  x.set_grad(Tensor());
  const Tensor shifted = ((x + 1.0) - x.mean()).sum();  // add, sub and mean save no tensors
  shifted.backward();
  shifted.backward();
  CHECK(x.grad().to_vector<float>() == std::vector<float>{0, 0, 0});
  const Tensor product = (x * x).sum();
  product.backward();
  CHECK(error_of([&] {
          product.backward();
        }).rfind("Trying to backward through the graph a second time", 0) == 0);
}

TEST_CASE("NoGradGuard and detach keep operations out of the graph") {
  engine::sim::restart();
  Tensor w = engine::ones({2}, engine::requires_grad());
  {
    engine::NoGradGuard no_grad;
    CHECK_FALSE((w * 2.0).requires_grad());
    CHECK_FALSE(engine::GradMode::is_enabled());
    w.add_(engine::ones({2}));  // allowed while not recording, as optimizers do
  }
  CHECK(engine::GradMode::is_enabled());
  CHECK(w.to_vector<float>() == std::vector<float>{2, 2});
  const Tensor d = w.detach();
  CHECK_FALSE(d.requires_grad());
  CHECK(d.to_vector<float>() == w.to_vector<float>());
  w.detach().mul_(3.0);  // detach shares the values
  CHECK(w.to_vector<float>() == std::vector<float>{6, 6});
}

TEST_CASE("gradients flow back across devices to a cpu leaf") {
  engine::sim::use_machine("m3-max-64gb");
  Tensor w = engine::ones({2}, engine::requires_grad());
  (w.to(engine::Device("mps")) * 5.0).sum().backward();
  CHECK(w.grad().device().str() == "cpu");
  CHECK(w.grad().to_vector<float>() == std::vector<float>{5, 5});
}

TEST_CASE("a 0-dim cpu tensor used with an mps tensor gets its gradient on the cpu") {
  engine::sim::use_machine("m3-max-64gb");
  Tensor scale = engine::tensor(2.0, engine::requires_grad());
  const Tensor x = engine::tensor({1.0, 2.0}, Device("mps"));
  (x * scale).sum().backward();
  CHECK(scale.grad().device().str() == "cpu");
  CHECK(scale.grad().item<float>() == 3.0f);
}

TEST_CASE("item reads the one value of a tensor, and refuses larger ones") {
  engine::sim::restart();
  CHECK(engine::tensor(2.5).item<float>() == 2.5f);
  CHECK(engine::tensor(2.5).item<double>() == 2.5);
  CHECK(engine::tensor({7}).item<std::int64_t>() == 7);
  CHECK(error_of([] { engine::ones({3}).item<float>(); }) ==
        "a Tensor with 3 elements cannot be converted to Scalar");
}

TEST_CASE("a graph hundreds of thousands of nodes deep is freed without running out of stack") {
  // Freed node by node inside one another's destructors, a chain this deep once overflowed the
  // stack (a model of thousands of layers). Shape-only: the nodes hold no values. Both kinds of
  // chain: additions save no tensors (their nodes survive backward with their edges), and
  // products save their operands (freed at once by backward, kept when no backward runs).
  engine::sim::restart();
  engine::sim::ShapeOnlyGuard shape_only;
  constexpr int kDepth = 300'000;
  for (const bool backward : {false, true}) {
    CAPTURE(backward);
    Tensor w = engine::ones({2}, engine::requires_grad());
    Tensor sum = w, product = w;
    for (int i = 0; i < kDepth; ++i) {
      sum = sum + 1.0;
      product = product * 2.0;
    }
    Tensor loss = (sum + product).sum();
    if (backward) loss.backward();
    CHECK(w.use_count() > 1);         // the graph's first nodes hold the leaf
    sum = product = loss = Tensor();  // the last references to the chains
    CHECK(w.use_count() == 1);        // every node freed
    CHECK(w.grad().defined() == backward);
  }
}
