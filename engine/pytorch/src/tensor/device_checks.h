#pragma once
// Internal: what PyTorch 2.9 raises when one operation's tensors live on different devices.
// Note [Device checks on MPS]: torchgen gives the generated wrappers a device check only for
// backends with device guards (CUDA-like ones), not for MPS. An operator with any input on mps
// runs its MPS kernel (MPS outranks the cpu among dispatch keys), and the user sees the first
// check that kernel's own code runs: TensorIterator's, a TensorUtils check, an MPS helper's or
// a bare TORCH_CHECK. Each function below is one of those checks, named after PyTorch's, with
// its exact text; every operation calls the one its PyTorch kernel runs first (the table with
// sources is tests/engine/pytorch/device_mismatch_test.cpp).

#include <initializer_list>
#include <string_view>

#include "engine/tensor.h"

namespace engine::detail {

// Whether the MPS kernel is the one dispatched: any defined input on mps.
bool any_on_mps(std::initializer_list<const Tensor*> tensors);

// TensorIterator's check_all_same_device (aten/src/ATen/TensorIterator.cpp, compute_types):
// the common device is that of the first operand, outputs first, not on the cpu; any other
// operand raises "Expected all tensors to be on the same device, but found at least two
// devices, mps:0 and cpu!", whatever the operand order. Binary ops' configs allow_cpu_scalars:
// one 0-dim cpu input then joins a kernel on another device as a scalar. Returns the common
// device, where the result lands.
enum class CpuScalars { Rejected, Allowed };
// An operand as that check sees it; a tensor converts to one, and a step of an optimizer can
// describe an intermediate it does not build.
struct IterOperand {
  IterOperand(const Tensor& t) : device(t.device()), zero_dim(t.dim() == 0) {}  // NOLINT: implicit
  IterOperand(Device d, bool is_zero_dim) : device(d), zero_dim(is_zero_dim) {}
  Device device;
  bool zero_dim;
};
Device check_all_same_device(std::initializer_list<IterOperand> outputs,
                             std::initializer_list<IterOperand> inputs, CpuScalars cpu_scalars);

// at::TensorArg: a tensor's device, with the name and 1-based position an error message gives
// it (position 0 is printed as the bare name, for 'out' or 'self').
struct TensorArg {
  Device device;
  std::string_view name;
  int pos;
};
// checkAllSameGPU (aten/src/ATen/TensorUtils.cpp): each argument against the first one, as
// "Tensor for argument #2 'mat2' is on CPU, but expected it to be on GPU (while checking
// arguments for mm)".
void check_all_same_gpu(std::string_view checked_from, std::initializer_list<TensorArg> args);

// The MPS linear kernel's checks (aten/src/ATen/native/mps/operations/Linear.mm, _mps_linear):
// the input, then the weight, then the bias must be on mps ("Tensor for argument input is on
// cpu but expected on mps").
void check_mps_linear_arguments(const Tensor& input, const Tensor& weight, const Tensor& bias);

// The MPSGraph Placeholder constructor (aten/src/ATen/native/mps/OperationUtils.mm), which
// kernels built on MPSGraph call for each input in turn: "Placeholder storage has not been
// allocated on MPS device!".
void check_placeholder_storage(std::initializer_list<const Tensor*> inputs);

// mtl_setBuffer (aten/src/ATen/native/mps/OperationUtils.h), which Metal kernels call through
// mtl_setArgs for each argument: a cpu tensor other than a 0-dim one raises "Passed CPU tensor
// to MPS op".
void check_mtl_buffers(std::initializer_list<const Tensor*> arguments);

// A bare TORCH_CHECK(name.is_mps()) (c10/util/Exception.h, TORCH_CHECK_MSG): "Expected
// vec.is_mps() to be true, but got false.  (Could this error message be improved?  If so,
// please report an enhancement request to PyTorch.)".
void torch_check_is_mps(const Tensor& tensor, std::string_view name);

// The MPS dot kernel's dot_check (aten/src/ATen/native/mps/operations/Blas.mm): "Expected all
// tensors to be on the same device. Found: mps:0, cpu", self first.
void dot_check_devices(const Tensor& self, const Tensor& other);

// mps_equal (aten/src/ATen/native/mps/operations/Equal.cpp): "Cannot compare two tensors on
// different devices. Got: mps:0 and cpu", self first.
void mps_equal_check_devices(const Tensor& self, const Tensor& src);

// validate_sdpa_input (aten/src/ATen/native/transformers/attention.cpp), run before any
// backend is chosen: "Expected query, key, and value to have the same device type, but got
// query.device: mps:0 key.device: cpu and value.device: mps:0 instead."
void validate_sdpa_input_devices(const Tensor& query, const Tensor& key, const Tensor& value);

}  // namespace engine::detail
