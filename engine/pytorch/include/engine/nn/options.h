#pragma once
// The options of torch::nn::functional, as LibTorch spells them: each option is set by a method
// that returns the options (LayerNormFuncOptions({4}).eps(1e-6)) and read by the same method
// without an argument, as LibTorch's TORCH_ARG makes them. Only the options the course uses.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
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

// torch::ExpandingArray<D>: D sizes, given as one (repeated) or as all D: an image operator's
// kernel, stride or padding, {3, 3} or 3.
template <std::size_t D>
class ExpandingArray {
 public:
  ExpandingArray(std::int64_t single) { values_.fill(single); }  // NOLINT: implicit, as LibTorch's
  ExpandingArray(std::initializer_list<std::int64_t> list) {     // NOLINT: implicit, as LibTorch's
    if (list.size() != D)
      throw std::invalid_argument("Expected " + std::to_string(D) + " values, but instead got " +
                                  std::to_string(list.size()));
    std::copy(list.begin(), list.end(), values_.begin());
  }
  std::int64_t operator[](std::size_t i) const { return values_[i]; }
  static constexpr std::size_t size() { return D; }

 private:
  std::array<std::int64_t, D> values_{};
};

namespace nn::functional {

// F::conv2d's options; groups must be 1 (the engine's convolutions are dense).
class Conv2dFuncOptions {
 public:
  Conv2dFuncOptions& bias(const Tensor& value) {
    bias_ = value;
    return *this;
  }
  const Tensor& bias() const { return bias_; }
  Conv2dFuncOptions& stride(ExpandingArray<2> value) {
    stride_ = value;
    return *this;
  }
  const ExpandingArray<2>& stride() const { return stride_; }
  Conv2dFuncOptions& padding(ExpandingArray<2> value) {
    padding_ = value;
    return *this;
  }
  const ExpandingArray<2>& padding() const { return padding_; }
  Conv2dFuncOptions& dilation(ExpandingArray<2> value) {
    dilation_ = value;
    return *this;
  }
  const ExpandingArray<2>& dilation() const { return dilation_; }
  Conv2dFuncOptions& groups(std::int64_t value) {
    groups_ = value;
    return *this;
  }
  std::int64_t groups() const { return groups_; }

 private:
  Tensor bias_;
  ExpandingArray<2> stride_ = 1, padding_ = 0, dilation_ = 1;
  std::int64_t groups_ = 1;
};

// F::batch_norm's options: LibTorch's defaults (evaluation, momentum 0.1, eps 1e-5).
class BatchNormFuncOptions {
 public:
  BatchNormFuncOptions& weight(const Tensor& value) {
    weight_ = value;
    return *this;
  }
  const Tensor& weight() const { return weight_; }
  BatchNormFuncOptions& bias(const Tensor& value) {
    bias_ = value;
    return *this;
  }
  const Tensor& bias() const { return bias_; }
  BatchNormFuncOptions& training(bool value) {
    training_ = value;
    return *this;
  }
  bool training() const { return training_; }
  BatchNormFuncOptions& momentum(double value) {
    momentum_ = value;
    return *this;
  }
  double momentum() const { return momentum_; }
  BatchNormFuncOptions& eps(double value) {
    eps_ = value;
    return *this;
  }
  double eps() const { return eps_; }

 private:
  Tensor weight_, bias_;
  bool training_ = false;
  double momentum_ = 0.1, eps_ = 1e-5;
};

// F::max_pool2d's options: the stride defaults to the kernel's size.
class MaxPool2dFuncOptions {
 public:
  MaxPool2dFuncOptions(ExpandingArray<2> kernel_size)  // NOLINT: implicit, as LibTorch's
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  const ExpandingArray<2>& kernel_size() const { return kernel_size_; }
  MaxPool2dFuncOptions& stride(ExpandingArray<2> value) {
    stride_ = value;
    return *this;
  }
  const ExpandingArray<2>& stride() const { return stride_; }
  MaxPool2dFuncOptions& padding(ExpandingArray<2> value) {
    padding_ = value;
    return *this;
  }
  const ExpandingArray<2>& padding() const { return padding_; }

 private:
  ExpandingArray<2> kernel_size_, stride_, padding_ = 0;
};

class AdaptiveAvgPool2dFuncOptions {
 public:
  AdaptiveAvgPool2dFuncOptions(ExpandingArray<2> output_size)  // NOLINT: implicit, as LibTorch's
      : output_size_(output_size) {}
  const ExpandingArray<2>& output_size() const { return output_size_; }

 private:
  ExpandingArray<2> output_size_;
};

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

// torch::nn::functional::EmbeddingFuncOptions: padding_idx names a row whose gradient stays zero
// (a negative one counts from the end of the table).
class EmbeddingFuncOptions {
 public:
  EmbeddingFuncOptions& padding_idx(std::optional<std::int64_t> value) {
    padding_idx_ = value;
    return *this;
  }
  const std::optional<std::int64_t>& padding_idx() const { return padding_idx_; }

 private:
  std::optional<std::int64_t> padding_idx_;
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
