#pragma once
// Internal: ATen's ResultTypeState (aten/src/ATen/native/TypeProperties.cpp), the three
// categories of operand Note [Type promotion] ranks, for operations with any number of operands.

#include <optional>

#include "engine/scalar.h"
#include "engine/tensor.h"

namespace engine::detail {

struct ResultTypeState {
  std::optional<ScalarType> dimensioned, zero_dim, wrapped;

  void add(const Tensor& t);
  void add(const Scalar& s);
  ScalarType result() const;
};

}  // namespace engine::detail
