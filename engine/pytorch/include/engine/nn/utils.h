#pragma once
// torch::nn::utils: helpers for training loops.

#include <vector>

#include "engine/tensor.h"

namespace engine::nn::utils {

// Scales every gradient so that their combined L2 norm is at most max_norm, as
// torch.nn.utils.clip_grad_norm_ does in PyTorch 2 (always multiplying by a clamped factor,
// so it never waits for the device); returns the norm before clipping.
Tensor clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm);

}  // namespace engine::nn::utils
