#pragma once
// Tensor arithmetic and functions, with LibTorch's names: operators with PyTorch's
// broadcasting and device rules, activations, and comparisons. All differentiable ones record
// autograd nodes.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/scalar.h"
#include "engine/tensor.h"

namespace engine {

// Arithmetic with PyTorch's broadcasting and type promotion (engine/type_promotion.h): a Scalar
// is a Python number, an int keeping an integer tensor's dtype and a double making it float32.
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
// True division: integers and bools divide into float32.
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, const Scalar& b);
Tensor operator-(const Tensor& a, const Scalar& b);
Tensor operator*(const Tensor& a, const Scalar& b);
Tensor operator/(const Tensor& a, const Scalar& b);
Tensor operator+(const Scalar& a, const Tensor& b);
Tensor operator-(const Scalar& a, const Tensor& b);
Tensor operator*(const Scalar& a, const Tensor& b);
Tensor operator/(const Scalar& a, const Tensor& b);
Tensor operator-(const Tensor& a);
// torch::div: true division, or rounded towards zero ("trunc") or down ("floor"), keeping an
// integer dtype then.
Tensor div(const Tensor& a, const Tensor& b,
           std::optional<std::string_view> rounding_mode = std::nullopt);
Tensor div(const Tensor& a, const Scalar& b,
           std::optional<std::string_view> rounding_mode = std::nullopt);
// torch::floor_divide, Python's `//`: division rounded down.
Tensor floor_divide(const Tensor& a, const Tensor& b);
Tensor floor_divide(const Tensor& a, const Scalar& b);

// Comparisons, elementwise, in the operands' promoted dtype: bool tensors.
Tensor eq(const Tensor& a, const Tensor& b);
Tensor ne(const Tensor& a, const Tensor& b);
Tensor lt(const Tensor& a, const Tensor& b);
Tensor le(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, const Tensor& b);
Tensor ge(const Tensor& a, const Tensor& b);
Tensor eq(const Tensor& a, const Scalar& b);
Tensor ne(const Tensor& a, const Scalar& b);
Tensor lt(const Tensor& a, const Scalar& b);
Tensor le(const Tensor& a, const Scalar& b);
Tensor gt(const Tensor& a, const Scalar& b);
Tensor ge(const Tensor& a, const Scalar& b);
inline Tensor operator==(const Tensor& a, const Tensor& b) { return eq(a, b); }
inline Tensor operator!=(const Tensor& a, const Tensor& b) { return ne(a, b); }
inline Tensor operator<(const Tensor& a, const Tensor& b) { return lt(a, b); }
inline Tensor operator<=(const Tensor& a, const Tensor& b) { return le(a, b); }
inline Tensor operator>(const Tensor& a, const Tensor& b) { return gt(a, b); }
inline Tensor operator>=(const Tensor& a, const Tensor& b) { return ge(a, b); }
inline Tensor operator==(const Tensor& a, const Scalar& b) { return eq(a, b); }
inline Tensor operator!=(const Tensor& a, const Scalar& b) { return ne(a, b); }
inline Tensor operator<(const Tensor& a, const Scalar& b) { return lt(a, b); }
inline Tensor operator<=(const Tensor& a, const Scalar& b) { return le(a, b); }
inline Tensor operator>(const Tensor& a, const Scalar& b) { return gt(a, b); }
inline Tensor operator>=(const Tensor& a, const Scalar& b) { return ge(a, b); }

// relu keeps an integer dtype (a bool is refused); tanh turns integers into float32.
Tensor relu(const Tensor& x);
Tensor tanh(const Tensor& x);
// torch::pow(x, exponent) with a scalar exponent (aten::pow.Tensor_Scalar): an integer tensor
// stays one for a whole exponent.
Tensor pow(const Tensor& x, const Scalar& exponent);
Tensor log_softmax(const Tensor& x, std::int64_t dim);
Tensor softmax(const Tensor& x, std::int64_t dim);

// torch::cat: the tensors joined along `dim`; all other sizes must match.
Tensor cat(const std::vector<Tensor>& tensors, std::int64_t dim = 0);

// The same shape, dtype and device, filled.
Tensor zeros_like(const Tensor& t);
Tensor ones_like(const Tensor& t);
Tensor full_like(const Tensor& t, const Scalar& value);

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
