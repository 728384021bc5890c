#pragma once
// Internal: which operators have no MPS kernel in the emulated release, and the MPS backend's
// cpu fallback for them (aten/src/ATen/mps/MPSFallback.mm, aten/src/ATen/native/CPUFallback.cpp).

#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "engine/tensor.h"

namespace engine::detail {

// An operator the engine implements for the cpu that PyTorch has no MPS kernel for, and the
// public record that says so. Every operator not listed has kernels on both devices.
struct MissingMpsKernel {
  std::string_view op;      // "aten::_embedding_bag"
  std::string_view source;  // where PyTorch's missing kernel is documented
};
std::span<const MissingMpsKernel> operators_without_mps_kernel();

// Runs an operator that has no MPS kernel. With no input on mps, `cpu_kernel` runs on the
// inputs as they are. Otherwise, as PyTorch's dispatcher does: NotImplementedError unless the
// process started with PYTORCH_ENABLE_MPS_FALLBACK; with it, a UserWarning for the first
// fallback in the process, the inputs copied to the cpu (waiting for the GPU), the cpu kernel,
// and its result copied to the device of the first input. Every fallback is counted. Runs
// without recording autograd; the caller records the operator's node.
Tensor run_without_mps_kernel(std::string_view op, const std::vector<Tensor>& inputs,
                              const std::function<Tensor(const std::vector<Tensor>&)>& cpu_kernel);

}  // namespace engine::detail
