#pragma once
// Internal: PyTorch's rules for operations whose inputs live on different devices.

#include <initializer_list>
#include <string_view>

#include "engine/tensor.h"

namespace engine::detail {

// TensorIterator's rule (aten/src/ATen/TensorIterator.cpp, compute_types): the common device is
// that of the first operand not on the cpu; any operand elsewhere raises "Expected all tensors
// to be on the same device, but found at least two devices, mps:0 and cpu!", whatever the
// operand order.
Device common_device(std::initializer_list<const Tensor*> operands);

// Binary operations (add, mul, ...) allow one exception to that rule: a 0-dim cpu tensor next
// to a tensor on another device is used as a scalar, and the result lands on the other device.
Device binary_device(const Tensor& a, const Tensor& b);

// The MPS linear kernel's checks (aten/src/ATen/native/mps/operations/Linear.mm): the input,
// then the weight, then the bias must be on mps ("Tensor for argument input is on cpu but
// expected on mps").
void check_mps_linear_arguments(const Tensor& input, const Tensor& weight, const Tensor& bias);

}  // namespace engine::detail
