// torch::nn::LayerNorm's construction (LayerNormImpl::reset_parameters: ones and zeros) and
// forward.

#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/nn/normalization.h"

namespace engine::nn {

LayerNormImpl::LayerNormImpl(LayerNormOptions layer_norm_options)
    : options(std::move(layer_norm_options)) {
  if (!options.elementwise_affine()) return;
  weight = register_parameter("weight", ones(options.normalized_shape()));
  bias = register_parameter("bias", zeros(options.normalized_shape()));
}

Tensor LayerNormImpl::forward(const Tensor& input) const {
  return functional::layer_norm(input, functional::LayerNormFuncOptions(options.normalized_shape())
                                           .weight(weight)
                                           .bias(bias)
                                           .eps(options.eps()));
}

}  // namespace engine::nn
