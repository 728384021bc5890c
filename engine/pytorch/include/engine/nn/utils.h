#pragma once
// torch::nn::utils: helpers for training loops.

#include <vector>

#include "engine/tensor.h"

namespace engine::nn::utils {

// Scales every gradient so that their combined L2 norm is at most max_norm (multiplying by a
// clamped factor) and returns the norm before clipping, read back as a double: LibTorch's
// torch::nn::utils::clip_grad_norm_, whose reading waits for the device.
double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm);

}  // namespace engine::nn::utils

// Python's torch.nn.utils.clip_grad_norm_ (PyTorch 2) returns the norm as a tensor, never
// waiting for the device: what a Python training loop, nanoGPT's among them, runs.
namespace engine::py::torch::nn::utils {

Tensor clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm);

}  // namespace engine::py::torch::nn::utils
