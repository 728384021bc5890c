#pragma once
// torch::nn::functional: the stateless operations modules are built from.

#include <cstdint>

#include "engine/tensor.h"

namespace engine::nn::functional {

// input (..., in) x weight (out, in)^T + bias (out), with PyTorch's device checks.
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});
Tensor relu(const Tensor& input);
Tensor log_softmax(const Tensor& input, std::int64_t dim);
// The mean negative log-likelihood of the target classes: input (N, C) of log-probabilities,
// target (N) of int64 class indices; targets equal to -100 are ignored, as PyTorch's default
// ignore_index.
Tensor nll_loss(const Tensor& input, const Tensor& target);
// nll_loss(log_softmax(input, 1), target): the loss of a classifier's logits.
Tensor cross_entropy(const Tensor& input, const Tensor& target);

}  // namespace engine::nn::functional
