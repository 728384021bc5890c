#pragma once
// Tensor factories with LibTorch's names and defaults: float32 on cpu unless the options say
// otherwise; integer arange and integer tensor() default to int64, as in PyTorch.

#include <cstdint>
#include <initializer_list>

#include "engine/int_array_ref.h"
#include "engine/scalar.h"
#include "engine/tensor.h"
#include "engine/tensor_options.h"

namespace engine {

Tensor zeros(IntArrayRef sizes, TensorOptions options = {});
Tensor ones(IntArrayRef sizes, TensorOptions options = {});
// Without a dtype in the options, full's follows the value: float32, int64 or bool.
Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions options = {});
// Standard normal samples from the default generator (PyTorch's CPU sampler, bit for bit, in
// float32, float64, float16 and bfloat16). On
// mps they come from the mps generator, which manual_seed also seeds: the same sampler on a
// stream of its own (a Mac's MPS uses Philox, so its values differ from these).
Tensor randn(IntArrayRef sizes, TensorOptions options = {});
// Uniform samples in [0, 1).
Tensor rand(IntArrayRef sizes, TensorOptions options = {});
// 0, 1, ..., end - 1: int64 by default, like torch.arange(6).
Tensor arange(std::int64_t end, TensorOptions options = {});
Tensor arange(std::int64_t start, std::int64_t end, std::int64_t step = 1,
              TensorOptions options = {});

// torch.tensor: a 0-dim tensor from a scalar, or a 1-D tensor from a list.
Tensor tensor(double value, TensorOptions options = {});
Tensor tensor(int value, TensorOptions options = {});
Tensor tensor(std::int64_t value, TensorOptions options = {});
Tensor tensor(std::initializer_list<double> values, TensorOptions options = {});
Tensor tensor(std::initializer_list<float> values, TensorOptions options = {});
Tensor tensor(std::initializer_list<int> values, TensorOptions options = {});
Tensor tensor(std::initializer_list<std::int64_t> values, TensorOptions options = {});
Tensor tensor(std::initializer_list<bool> values, TensorOptions options = {});

}  // namespace engine
