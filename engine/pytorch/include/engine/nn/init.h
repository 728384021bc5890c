#pragma once
// torch::nn::init: in-place initialisers that draw from the default generator.

#include "engine/tensor.h"

namespace engine::nn::init {

// U(from, to), PyTorch's uniform_ kernel bit for bit.
void uniform_(const Tensor& tensor, double from, double to);
// He-uniform for leaky_relu with negative slope a, computed from fan_in as PyTorch does.
void kaiming_uniform_(const Tensor& tensor, double a);

}  // namespace engine::nn::init
