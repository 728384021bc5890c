#pragma once
// Models torch::nn::Embedding (torch/csrc/api/include/torch/nn/modules/embedding.h): a table of
// num_embeddings rows of embedding_dim values, looked up by int64 indices. reset_parameters()
// draws the weight from N(0, 1) with the default generator, as PyTorch's does, and zeroes the
// padding_idx row, whose gradient stays zero.

#include <cstdint>
#include <optional>

#include "engine/nn/functional.h"
#include "engine/nn/module.h"
#include "engine/tensor.h"

namespace engine::nn {

// torch::nn::EmbeddingOptions: the options the course uses.
class EmbeddingOptions {
 public:
  EmbeddingOptions(std::int64_t num_embeddings, std::int64_t embedding_dim)
      : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {}
  std::int64_t num_embeddings() const { return num_embeddings_; }
  std::int64_t embedding_dim() const { return embedding_dim_; }
  EmbeddingOptions& padding_idx(std::optional<std::int64_t> value) {
    padding_idx_ = value;
    return *this;
  }
  std::optional<std::int64_t> padding_idx() const { return padding_idx_; }

 private:
  std::int64_t num_embeddings_, embedding_dim_;
  std::optional<std::int64_t> padding_idx_;
};

class EmbeddingImpl : public Module {
 public:
  EmbeddingImpl(std::int64_t num_embeddings, std::int64_t embedding_dim);
  explicit EmbeddingImpl(EmbeddingOptions options);
  // indices (any shape, int64) -> indices.shape + (embedding_dim,)
  Tensor forward(const Tensor& indices) const;

  EmbeddingOptions options;
  Tensor weight;
};

class Embedding : public ModuleHolder<EmbeddingImpl> {
 public:
  using ModuleHolder<EmbeddingImpl>::ModuleHolder;
};

}  // namespace engine::nn
