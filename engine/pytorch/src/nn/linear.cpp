#include "engine/nn/linear.h"

#include <cmath>

#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/nn/init.h"

namespace engine::nn {

// torch.nn.Linear.reset_parameters: weight first, then bias, from the default generator.
LinearImpl::LinearImpl(std::int64_t in_features, std::int64_t out_features) {
  weight = register_parameter("weight", zeros({out_features, in_features}));
  bias = register_parameter("bias", zeros({out_features}));
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  const double bound = in_features > 0 ? 1 / std::sqrt(static_cast<double>(in_features)) : 0;
  init::uniform_(bias, -bound, bound);
}

Tensor LinearImpl::forward(const Tensor& input) const {
  return functional::linear(input, weight, bias);
}

}  // namespace engine::nn
