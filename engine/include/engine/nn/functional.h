#pragma once
// torch::nn::functional, the stateless operations modules are built from.

#include "engine/tensor.h"

namespace engine::nn::functional {

// input (..., in) x weight (out, in)^T + bias (out), with PyTorch's device checks.
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});

}  // namespace engine::nn::functional
