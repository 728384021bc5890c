#include "engine/factories.h"
#include "engine/nn/embedding_bag.h"

namespace engine::nn {

EmbeddingBagImpl::EmbeddingBagImpl(std::int64_t num_embeddings, std::int64_t embedding_dim) {
  weight = register_parameter("weight", randn({num_embeddings, embedding_dim}));
}

Tensor EmbeddingBagImpl::forward(const Tensor& input) const {
  return functional::embedding_bag(input, weight);
}

}  // namespace engine::nn
