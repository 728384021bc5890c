// torch::nn::Embedding's construction (EmbeddingImpl::reset and reset_parameters, with their
// checks of padding_idx) and forward.

#include <string>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/embedding.h"
#include "tensor/tensor_impl.h"

namespace engine::nn {
namespace {

// nn.Embedding's asserts: padding_idx within the table, a negative one counting from the end.
EmbeddingOptions checked(EmbeddingOptions options) {
  if (const auto index = options.padding_idx()) {
    const std::int64_t rows = options.num_embeddings();
    if (*index >= rows || *index < -rows)
      throw AssertionError("Padding_idx must be within num_embeddings");
    if (*index < 0) options.padding_idx(*index + rows);
  }
  return options;
}

}  // namespace

EmbeddingImpl::EmbeddingImpl(std::int64_t num_embeddings, std::int64_t embedding_dim)
    : EmbeddingImpl(EmbeddingOptions(num_embeddings, embedding_dim)) {}

// reset_parameters: torch::nn::init::normal_(weight), whose values are randn's, then the padding
// row zeroed without recording it.
EmbeddingImpl::EmbeddingImpl(EmbeddingOptions embedding_options)
    : options(checked(std::move(embedding_options))) {
  weight = register_parameter("weight", randn({options.num_embeddings(), options.embedding_dim()}));
  if (const auto index = options.padding_idx(); index && detail::have_values({&weight})) {
    const std::int64_t dim = options.embedding_dim();
    std::fill_n(weight.data_ptr<float>() + *index * dim, dim, 0.0f);
  }
}

Tensor EmbeddingImpl::forward(const Tensor& indices) const {
  return functional::embedding(
      indices, weight, functional::EmbeddingFuncOptions().padding_idx(options.padding_idx()));
}

}  // namespace engine::nn
