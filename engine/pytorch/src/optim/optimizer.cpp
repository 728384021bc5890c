#include "engine/optim/optimizer.h"

#include "engine/autograd.h"
#include "engine/errors.h"
#include "mps/stream.h"

namespace engine::optim {

Optimizer::Optimizer(std::vector<Tensor> params) : params_(std::move(params)) {
  if (params_.empty()) throw ValueError("optimizer got an empty parameter list");
}

void Optimizer::zero_grad(bool set_to_none) {
  NoGradGuard no_grad;
  detail::spend_framework("Optimizer.zero_grad", detail::FrameworkWork::ZeroGradCall);
  for (const Tensor& param : params_) {
    if (!param.grad().defined()) continue;
    detail::spend_framework("Optimizer.zero_grad", detail::FrameworkWork::ZeroGradParameter);
    if (set_to_none) {
      param.set_grad(Tensor());
    } else {
      param.grad().zero_();
    }
  }
}

}  // namespace engine::optim
