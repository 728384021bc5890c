#pragma once
// torch::nn::ReLU: max(x, 0), elementwise, as a module for Sequential.

#include "engine/nn/module.h"
#include "engine/ops.h"

namespace engine::nn {

class ReLUImpl : public Module {
 public:
  Tensor forward(const Tensor& input) const { return engine::relu(input); }
};

class ReLU : public ModuleHolder<ReLUImpl> {
 public:
  using ModuleHolder<ReLUImpl>::ModuleHolder;
};

}  // namespace engine::nn
