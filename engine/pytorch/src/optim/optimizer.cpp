#include "engine/optim/optimizer.h"

#include <string>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/scalar_type.h"
#include "mps/stream.h"

namespace engine::optim {

Optimizer::Optimizer(std::vector<Tensor> params) : params_(std::move(params)) {
  if (params_.empty()) throw ValueError("optimizer got an empty parameter list");
}

void Optimizer::require_float32(const Tensor& param) {
  if (param.scalar_type() == ScalarType::Float) return;
  throw Error("the course engine's optimizers update float32 parameters only, got " +
              std::string(python_dtype_name(param.scalar_type())) +
              " (mixed precision keeps the parameters in float32: torch::autocast)");
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
