#pragma once
// torch::optim::Optimizer: updates parameters from their gradients. step() runs without
// recording autograd, as PyTorch's optimizers do, and skips parameters without a gradient.

#include <vector>

#include "engine/tensor.h"

namespace engine::optim {

class Optimizer {
 public:
  // Refuses an empty list, as torch.optim.Optimizer does.
  explicit Optimizer(std::vector<Tensor> params);
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  virtual void step() = 0;
  // Forgets every gradient (set_to_none=True, PyTorch 2's default) or zeroes it in place.
  void zero_grad(bool set_to_none = true);
  const std::vector<Tensor>& parameters() const noexcept { return params_; }

 protected:
  // The engine's optimizers update float32 parameters (mixed precision keeps them float32);
  // another dtype is refused, naming it, before its values are read.
  static void require_float32(const Tensor& param);

  std::vector<Tensor> params_;
};

}  // namespace engine::optim
