#pragma once
// The options of torch::nn::functional, as LibTorch spells them: each option is set by a method
// that returns the options (LayerNormFuncOptions({4}).eps(1e-6)) and read by the same method
// without an argument, as LibTorch's TORCH_ARG makes them. Only the options the course uses.

#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

#include "engine/tensor.h"

namespace engine {

// torch::kSum, torch::kMean: the reductions, as LibTorch's enumtype constants.
namespace enumtype {
struct kSum {};
struct kMean {};
}  // namespace enumtype
inline constexpr enumtype::kSum kSum{};
inline constexpr enumtype::kMean kMean{};

namespace nn::functional {

class LayerNormFuncOptions {
 public:
  LayerNormFuncOptions(std::vector<std::int64_t> normalized_shape)
      : normalized_shape_(std::move(normalized_shape)) {}  // NOLINT: as LibTorch's
  const std::vector<std::int64_t>& normalized_shape() const { return normalized_shape_; }
  LayerNormFuncOptions& weight(const Tensor& value) {
    weight_ = value;
    return *this;
  }
  const Tensor& weight() const { return weight_; }
  LayerNormFuncOptions& bias(const Tensor& value) {
    bias_ = value;
    return *this;
  }
  const Tensor& bias() const { return bias_; }
  LayerNormFuncOptions& eps(double value) {
    eps_ = value;
    return *this;
  }
  double eps() const { return eps_; }

 private:
  std::vector<std::int64_t> normalized_shape_;
  Tensor weight_, bias_;
  double eps_ = 1e-5;
};

class DropoutFuncOptions {
 public:
  DropoutFuncOptions& p(double value) {
    p_ = value;
    return *this;
  }
  double p() const { return p_; }
  DropoutFuncOptions& training(bool value) {
    training_ = value;
    return *this;
  }
  bool training() const { return training_; }

 private:
  double p_ = 0.5;
  bool training_ = true;
};

using EmbeddingBagMode = std::variant<enumtype::kSum, enumtype::kMean>;

class EmbeddingBagFuncOptions {
 public:
  EmbeddingBagFuncOptions& mode(EmbeddingBagMode value) {
    mode_ = value;
    return *this;
  }
  const EmbeddingBagMode& mode() const { return mode_; }

 private:
  EmbeddingBagMode mode_ = enumtype::kMean{};
};

}  // namespace nn::functional
}  // namespace engine
