// torch::scaled_dot_product_attention (Python: torch.nn.functional.scaled_dot_product_attention), as PyTorch's math implementation computes
// it (aten/src/ATen/native/transformers/attention.cpp): each step is an ordinary operation, so
// its cost and its gradient follow from theirs.

#include <cmath>
#include <limits>

#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// 0 where a query may attend (key position <= query position), -inf elsewhere: (L, S).
Tensor causal_mask(std::int64_t queries, std::int64_t keys, Device device) {
  Tensor mask = detail::allocate({queries, keys}, ScalarType::Float, device);
  detail::launch({.name = "aten::triu + masked_fill",
                  .bytes = detail::nbytes(mask),
                  .encoding = detail::Encoding::Graph},
                 device);
  if (mask.impl().has_values()) {
    float* m = mask.impl().data<float>();
    for (std::int64_t i = 0; i < queries; ++i) {
      for (std::int64_t j = 0; j < keys; ++j)
        m[i * keys + j] = j <= i ? 0.0f : -std::numeric_limits<float>::infinity();
    }
  }
  return mask;
}

}  // namespace

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask, double dropout_p, bool is_causal) {
  if (attn_mask.defined())
    throw Error("the course engine's scaled_dot_product_attention takes no attn_mask");
  detail::validate_sdpa_input_devices(query, key, value);
  // PyTorch scales q and k by sqrt(1 / sqrt(E)) each, before the product, rather than the
  // (L, S) product itself: two small multiplications instead of one large one.
  const double root_scale = std::sqrt(1.0 / std::sqrt(static_cast<double>(query.size(-1))));
  Tensor weights = (query * root_scale).matmul(key.transpose(-2, -1) * root_scale);
  if (is_causal) weights = weights + causal_mask(query.size(-2), key.size(-2), query.device());
  weights = engine::softmax(weights, -1);
  if (dropout_p > 0)
    weights = nn::functional::dropout(weights, nn::functional::DropoutFuncOptions().p(dropout_p));
  return weights.matmul(value);
}

}  // namespace engine
