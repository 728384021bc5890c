// nn::Embedding and nn::LayerNorm as LibTorch builds them: their parameters, initialised as
// reset_parameters() does, their options' checks, and a forward pass that is the functional
// operation's.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/embedding.h"
#include "engine/nn/functional.h"
#include "engine/nn/normalization.h"
#include "engine/ops.h"
#include "engine/random.h"
#include "engine/sim.h"

namespace F = engine::nn::functional;
using engine::Tensor;

TEST_CASE("an Embedding's table is drawn from N(0, 1) as randn draws it, its padding row zero") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(0);
  const engine::nn::Embedding plain(10, 3);
  engine::manual_seed(0);
  const Tensor expected = engine::randn({10, 3});
  CHECK(engine::equal(plain->weight, expected));
  CHECK(plain->named_parameters().size() == 1);
  CHECK(plain->named_parameters()[0].first == "weight");

  engine::manual_seed(0);
  const engine::nn::Embedding padded(engine::nn::EmbeddingOptions(10, 3).padding_idx(-1));
  CHECK(padded->options.padding_idx() == 9);  // counted from the end, as Python stores it
  CHECK(engine::equal(padded->weight.slice(0, 0, 9), expected.slice(0, 0, 9)));
  CHECK(engine::equal(padded->weight.slice(0, 9, 10), engine::zeros({1, 3})));
}

TEST_CASE("an Embedding looks rows up, and its padding row gets no gradient") {
  engine::sim::use_machine("linux-x86_64");
  const engine::nn::Embedding table(engine::nn::EmbeddingOptions(4, 2).padding_idx(0));
  const Tensor ids = engine::tensor({0, 2, 2, 0});
  const Tensor rows = table(ids);
  CHECK(rows.sizes().vec() == std::vector<std::int64_t>{4, 2});
  CHECK(engine::equal(rows, F::embedding(ids, table->weight)));
  rows.sum().backward();
  CHECK(engine::equal(
      table->weight.grad(),
      engine::tensor({0.0f, 0.0f, 0.0f, 0.0f, 2.0f, 2.0f, 0.0f, 0.0f}).reshape({4, 2})));
}

TEST_CASE("padding_idx outside the table is refused with PyTorch's assertion text") {
  engine::sim::use_machine("linux-x86_64");
  for (const std::int64_t index : {4, -5}) {
    CAPTURE(index);
    CHECK_THROWS_WITH_AS(
        engine::nn::Embedding(engine::nn::EmbeddingOptions(4, 2).padding_idx(index)),
        "Padding_idx must be within num_embeddings", engine::AssertionError);
    CHECK_THROWS_WITH_AS(F::embedding(engine::tensor({1}), engine::randn({4, 2}),
                                      F::EmbeddingFuncOptions().padding_idx(index)),
                         "Padding_idx must be within num_embeddings", engine::AssertionError);
  }
}

TEST_CASE("a LayerNorm starts as the identity's scale and shift: ones and zeros") {
  engine::sim::use_machine("linux-x86_64");
  const engine::nn::LayerNorm norm(engine::nn::LayerNormOptions({2, 3}));
  CHECK(norm->options.eps() == 1e-5);
  CHECK(engine::equal(norm->weight, engine::ones({2, 3})));
  CHECK(engine::equal(norm->bias, engine::zeros({2, 3})));
  CHECK(norm->parameters().size() == 2);
  const Tensor x = engine::randn({4, 2, 3});
  CHECK(engine::equal(
      norm(x),
      F::layer_norm(x, F::LayerNormFuncOptions({2, 3}).weight(norm->weight).bias(norm->bias))));

  const engine::nn::LayerNorm bare(
      engine::nn::LayerNormOptions({3}).elementwise_affine(false).eps(1e-3));
  CHECK(bare->parameters().empty());
  CHECK_FALSE(bare->weight.defined());
  CHECK(engine::equal(bare(x), F::layer_norm(x, F::LayerNormFuncOptions({3}).eps(1e-3))));
}
