#include "engine/optim/optimizer.h"

#include "engine/autograd.h"

namespace engine::optim {

void Optimizer::zero_grad(bool set_to_none) {
  NoGradGuard no_grad;
  for (const Tensor& param : params_) {
    if (!param.grad().defined()) continue;
    if (set_to_none) {
      param.set_grad(Tensor());
    } else {
      param.grad().zero_();
    }
  }
}

}  // namespace engine::optim
