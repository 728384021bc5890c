#pragma once
// Models torch::nn::LayerNorm (torch/csrc/api/include/torch/nn/modules/normalization.h): layer
// normalisation over the trailing normalized_shape dimensions, with a learnable scale (ones) and
// shift (zeros) of that shape unless elementwise_affine is false, as reset_parameters() makes them.

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/nn/module.h"
#include "engine/tensor.h"

namespace engine::nn {

// torch::nn::LayerNormOptions, with LibTorch's defaults (eps 1e-5, elementwise_affine true).
class LayerNormOptions {
 public:
  LayerNormOptions(std::vector<std::int64_t> normalized_shape)  // NOLINT: implicit, as LibTorch's
      : normalized_shape_(std::move(normalized_shape)) {}
  const std::vector<std::int64_t>& normalized_shape() const { return normalized_shape_; }
  LayerNormOptions& eps(double value) {
    eps_ = value;
    return *this;
  }
  double eps() const { return eps_; }
  LayerNormOptions& elementwise_affine(bool value) {
    elementwise_affine_ = value;
    return *this;
  }
  bool elementwise_affine() const { return elementwise_affine_; }

 private:
  std::vector<std::int64_t> normalized_shape_;
  double eps_ = 1e-5;
  bool elementwise_affine_ = true;
};

class LayerNormImpl : public Module {
 public:
  explicit LayerNormImpl(LayerNormOptions options);
  Tensor forward(const Tensor& input) const;

  LayerNormOptions options;
  Tensor weight;  // undefined without elementwise_affine
  Tensor bias;
};

class LayerNorm : public ModuleHolder<LayerNormImpl> {
 public:
  using ModuleHolder<LayerNormImpl>::ModuleHolder;
};

}  // namespace engine::nn
