#pragma once
// Models torch::nn::EmbeddingBag: a table of num_embeddings rows of embedding_dim values, each
// bag of indices reduced to the mean of its rows (LibTorch's default mode). The weight starts as
// N(0, 1) samples from the default generator, as reset_parameters() draws it.

#include <cstdint>

#include "engine/nn/functional.h"
#include "engine/nn/module.h"
#include "engine/tensor.h"

namespace engine::nn {

class EmbeddingBagImpl : public Module {
 public:
  EmbeddingBagImpl(std::int64_t num_embeddings, std::int64_t embedding_dim);
  // input: (bags, indices per bag), int64.
  Tensor forward(const Tensor& input) const;

  Tensor weight;
};

class EmbeddingBag : public ModuleHolder<EmbeddingBagImpl> {
 public:
  using ModuleHolder<EmbeddingBagImpl>::ModuleHolder;
};

}  // namespace engine::nn
