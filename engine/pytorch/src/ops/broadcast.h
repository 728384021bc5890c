#pragma once
// Internal: PyTorch's broadcasting rule (aten/src/ATen/ExpandUtils.cpp): shapes are aligned from
// the right, and a dimension of size 1 stretches to match the other.

#include <cstdint>
#include <vector>

#include "engine/int_array_ref.h"

namespace engine::detail {

// The shape two operands broadcast to, or PyTorch's "The size of tensor a (2) must match ..."
std::vector<std::int64_t> broadcast_shape(IntArrayRef a, IntArrayRef b);
// Element steps of a contiguous tensor of `shape` read in the broadcast shape `out`: 0 along
// the dimensions it is stretched over.
std::vector<std::int64_t> broadcast_strides(IntArrayRef shape,
                                            const std::vector<std::int64_t>& out);

}  // namespace engine::detail
