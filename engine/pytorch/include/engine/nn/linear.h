#pragma once
// Models torch::nn::Linear: y = x W^T + b, with weight (out_features, in_features) and bias
// (out_features). Initialised as PyTorch does in reset_parameters(): kaiming_uniform_ with
// a = sqrt(5) for the weight, then U(-1/sqrt(in_features), 1/sqrt(in_features)) for the bias,
// both drawn from the default generator, so a seeded Linear has PyTorch's exact weights.

#include <cstdint>

#include "engine/nn/module.h"
#include "engine/tensor.h"

namespace engine::nn {

class LinearImpl : public Module {
 public:
  LinearImpl(std::int64_t in_features, std::int64_t out_features);
  Tensor forward(const Tensor& input) const;

  Tensor weight;
  Tensor bias;
};

class Linear : public ModuleHolder<LinearImpl> {
 public:
  using ModuleHolder<LinearImpl>::ModuleHolder;
};

}  // namespace engine::nn
