#pragma once
// torch::nn::functional: the stateless operations modules are built from.

#include <cstdint>

#include "engine/int_array_ref.h"
#include "engine/nn/options.h"
#include "engine/tensor.h"

namespace engine::nn::functional {

// input (..., in) x weight (out, in)^T + bias (out), with PyTorch's device checks.
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});
Tensor relu(const Tensor& input);
// GELU in its exact (erf) form, nn.GELU's default.
Tensor gelu(const Tensor& input);
Tensor softmax(const Tensor& input, std::int64_t dim);
Tensor log_softmax(const Tensor& input, std::int64_t dim);
// The mean negative log-likelihood of the target classes: input (N, C) of log-probabilities,
// target (N) of int64 class indices; targets equal to -100 are ignored, as PyTorch's default
// ignore_index.
Tensor nll_loss(const Tensor& input, const Tensor& target);
// nll_loss(log_softmax(input, 1), target): the loss of a classifier's logits.
Tensor cross_entropy(const Tensor& input, const Tensor& target);

// The rows of `weight` (num_embeddings, dim) picked by the int64 `input`: input.shape + (dim,).
// The row options.padding_idx() names gets no gradient.
Tensor embedding(const Tensor& input, const Tensor& weight,
                 const EmbeddingFuncOptions& options = {});
// torch.nn.functional.embedding_bag for a 2-D input: each row of `input` (bags, n) is one bag
// of indices into `weight` (num_embeddings, dim), reduced to one row (by its mean, unless
// options.mode() is kSum): (bags, dim). Its operators have no MPS kernel in PyTorch 2.9, so on
// mps it needs the cpu fallback.
Tensor embedding_bag(const Tensor& input, const Tensor& weight,
                     const EmbeddingBagFuncOptions& options = {});
// Normalises over the trailing options.normalized_shape() dimensions; weight and bias are
// optional.
Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options);
// In training, zeroes each element with probability p and scales the rest by 1 / (1 - p).
// On the cpu the mask keeps the elements a seeded PyTorch on a Mac keeps (bernoulli_(1 - p));
// on mps it comes from the engine's own generator, whose values a Mac's Philox does not give.
Tensor dropout(const Tensor& input, const DropoutFuncOptions& options = {});

// The image operators, on (N, C, H, W) float tensors (or (C, H, W), one image).
// A 2-D convolution: weight (out_channels, in_channels, kH, kW), options.bias() (out_channels).
Tensor conv2d(const Tensor& input, const Tensor& weight, const Conv2dFuncOptions& options = {});
// Per channel: in training, normalised by the batch's own mean and variance, which update the
// running statistics in place (running = (1 - momentum) running + momentum batch, the variance
// unbiased); in evaluation, by the running statistics.
Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const BatchNormFuncOptions& options = {});
Tensor max_pool2d(const Tensor& input, const MaxPool2dFuncOptions& options);
// Each output cell averages its share of the plane; a 1 x 1 output is input.mean({-1, -2},
// true), as PyTorch computes it on every device.
Tensor adaptive_avg_pool2d(const Tensor& input, const AdaptiveAvgPool2dFuncOptions& options);

}  // namespace engine::nn::functional
