#pragma once
// PyTorch's type promotion (c10/core/ScalarType.cpp, aten/src/ATen/native/TypeProperties.cpp),
// with LibTorch's names: torch::promote_types, torch::result_type, torch::can_cast.
//
// Note [Type promotion]
// Two dtypes promote to the smallest one that holds both (promote_types: uint8 and int8 give
// int16, float16 and bfloat16 give float32). An operation's operands promote by category, bool
// below integers below floating point: tensors with dimensions decide first; 0-dim tensors count
// only when they are of a higher category than those; Python numbers (a wrapped Scalar) last,
// and a floating one counts as the default dtype, float32. So `int64_tensor + 1.5` is float32,
// `int64_tensor * 2` stays int64, `float16_tensor + torch.tensor(1.0)` stays float16, and
// `uint8_tensor + 1000` stays uint8 (and wraps).

#include "engine/scalar.h"
#include "engine/scalar_type.h"
#include "engine/tensor.h"

namespace engine {

// c10::promoteTypes: the smallest dtype both a and b convert to without losing their category.
ScalarType promote_types(ScalarType a, ScalarType b);
// The dtype an operation on these operands computes in and returns (arithmetic, comparisons'
// inputs), by Note [Type promotion].
ScalarType result_type(const Tensor& a, const Tensor& b);
ScalarType result_type(const Tensor& a, const Scalar& b);
ScalarType result_type(const Scalar& a, const Tensor& b);
ScalarType result_type(const Scalar& a, const Scalar& b);
// c10::canCast: whether an in-place result of dtype `from` may be written into `to`: never
// floating point into an integer, nor anything but bool into bool.
bool can_cast(ScalarType from, ScalarType to);

}  // namespace engine
