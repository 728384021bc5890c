// torch::scaled_dot_product_attention (Python: torch.nn.functional.scaled_dot_product_attention), as PyTorch's math implementation computes
// it (aten/src/ATen/native/transformers/attention.cpp): each step is an ordinary operation, so
// its cost and its gradient follow from theirs.

#include <cmath>
#include <limits>

#include "amp/policy.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// 0 where a query may attend (key position <= query position), -inf elsewhere: (L, S), in the
// queries' dtype (convert_boolean_attn_mask).
Tensor causal_mask(std::int64_t queries, std::int64_t keys, Device device, ScalarType dtype) {
  Tensor mask = detail::allocate({queries, keys}, dtype, device);
  detail::launch({.name = "aten::triu + masked_fill",
                  .bytes = detail::nbytes(mask),
                  .encoding = detail::Encoding::Graph,
                  .dtype = dtype},
                 device);
  if (mask.impl().has_values()) {
    detail::ResultAs<float> m(mask);
    for (std::int64_t i = 0; i < queries; ++i) {
      for (std::int64_t j = 0; j < keys; ++j)
        m.data()[i * keys + j] = j <= i ? 0.0f : -std::numeric_limits<float>::infinity();
    }
    m.store();
  }
  return mask;
}

}  // namespace

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask, double dropout_p, bool is_causal) {
  if (attn_mask.defined())
    throw Error("the course engine's scaled_dot_product_attention takes no attn_mask");
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::ScaledDotProductAttention,
                                          {query, key, value})) {
    const detail::AutocastExclusion exclusion(cast->device);
    return scaled_dot_product_attention(cast->inputs[0], cast->inputs[1], cast->inputs[2], {},
                                        dropout_p, is_causal);
  }
  detail::validate_sdpa_input_devices(query, key, value);
  // _scaled_dot_product_attention_math keeps float16 and bfloat16 operands in float32 for
  // accuracy and rounds the result back (the emulator takes the same path on mps).
  if (isReducedFloatingType(query.scalar_type())) {
    const ScalarType origin = query.scalar_type();
    // One cast per statement: the order of a call's arguments is the compiler's, and each cast
    // launches a kernel and takes a buffer.
    const Tensor q = query.to(ScalarType::Float);
    const Tensor k = key.to(ScalarType::Float);
    const Tensor v = value.to(ScalarType::Float);
    return scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal).to(origin);
  }
  // PyTorch scales q and k by sqrt(1 / sqrt(E)) each, before the product, rather than the
  // (L, S) product itself: two small multiplications instead of one large one.
  const double root_scale = std::sqrt(1.0 / std::sqrt(static_cast<double>(query.size(-1))));
  Tensor weights = (query * root_scale).matmul(key.transpose(-2, -1) * root_scale);
  if (is_causal) {
    weights =
        weights + causal_mask(query.size(-2), key.size(-2), query.device(), query.scalar_type());
  }
  weights = engine::softmax(weights, -1);
  if (dropout_p > 0)
    weights = nn::functional::dropout(weights, nn::functional::DropoutFuncOptions().p(dropout_p));
  return weights.matmul(value);
}

}  // namespace engine
