#pragma once
// Tensor arithmetic and functions, with LibTorch's names: operators with PyTorch's
// broadcasting and device rules, activations, and comparisons. All differentiable ones record
// autograd nodes.

#include <cstdint>
#include <vector>

#include "engine/tensor.h"

namespace engine {

Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, double b);
Tensor operator-(const Tensor& a, double b);
Tensor operator*(const Tensor& a, double b);
Tensor operator/(const Tensor& a, double b);
Tensor operator+(double a, const Tensor& b);
Tensor operator-(double a, const Tensor& b);
Tensor operator*(double a, const Tensor& b);
Tensor operator/(double a, const Tensor& b);
Tensor operator-(const Tensor& a);

Tensor relu(const Tensor& x);
Tensor tanh(const Tensor& x);
// torch::pow(x, exponent) with a scalar exponent (aten::pow.Tensor_Scalar)
Tensor pow(const Tensor& x, double exponent);
Tensor log_softmax(const Tensor& x, std::int64_t dim);
Tensor softmax(const Tensor& x, std::int64_t dim);

// torch::cat: the tensors joined along `dim`; all other sizes must match.
Tensor cat(const std::vector<Tensor>& tensors, std::int64_t dim = 0);

Tensor zeros_like(const Tensor& t);
Tensor ones_like(const Tensor& t);

// torch::scaled_dot_product_attention, as PyTorch's math implementation computes it:
// softmax(q k^T / sqrt(E) [+ causal mask]) v, with dropout on the weights; q (..., L, E),
// k (..., S, E), v (..., S, Ev). The engine takes no attn_mask (none of the course's models has
// one): pass {} for it, as LibTorch's callers do.
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask = {}, double dropout_p = 0.0,
                                    bool is_causal = false);
// torch.equal: same shape and same values (dtypes may differ); a Python bool, not a tensor.
bool equal(const Tensor& a, const Tensor& b);
// torch.allclose: every element of a is within atol + rtol x |b| of b's (b is the reference,
// so the test is not symmetric); NaNs count as close only with equal_nan. A Python bool.
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-05, double atol = 1e-08,
              bool equal_nan = false);
// torch.isfinite: a bool tensor, true where the value is neither infinite nor NaN.
Tensor isfinite(const Tensor& t);
// True when every element of a bool tensor is true (Tensor.all().item()).
bool all(const Tensor& t);

}  // namespace engine
