#pragma once
// Internal: a call of a compile_shader kernel, bound as torch/csrc/mps/Module.cpp's
// _mps_MetalKernel.__call__ binds it in PyTorch 2.9 (the release whose __call__ takes
// arg_casts and not yet error_buf_idx): positional argument i goes to buffer index i, a tensor
// as its buffer (a 0-dim cpu tensor as its bytes), a Python float as 4 bytes of float, a Python
// int as 8 bytes of int64, a list as an array of them, each converted first where arg_casts
// says so ("fp16", "int32", "int16", "int8", "uint8"). The grid is `threads` threads (by
// default the first tensor's numel) in threadgroups of `group_size` (by default, in one
// dimension as many as fit up to 1,024; in two or three, 1,024 along x).
//
// Note [Where the emulator is stricter than compile_shader]
// PyTorch checks neither that a call binds every buffer the kernel reads nor that what it binds
// has the type the kernel reads it as: Metal then reads whatever was bound before, or the bytes
// of a float as an int. The emulator stops instead, with a message that says PyTorch would not:
// a buffer left unbound; a tensor whose dtype is not the buffer's element type (float32 for
// float, half... and atomic_float; int64 for long and ulong; bool for bool, char and uchar); a
// scalar whose bytes the kernel would misread (a Python int read as a narrower integer is fine
// while its value fits, as Metal reads its low bytes).

#include <cstddef>
#include <vector>

#include "engine/compile_shader.h"
#include "engine/metal/dispatch.h"

namespace engine::detail {

struct KernelCall {
  std::vector<std::vector<std::byte>> bytes;   // the scalar and list arguments (setBytes)
  std::vector<Tensor> tensors;                 // the tensor arguments, by buffer index
  std::vector<metal::BufferBinding> bindings;  // by buffer index
  metal::Size3 grid, group;
};

KernelCall bind_kernel_call(const metal::Kernel& kernel,
                            const std::vector<py::torch::mps::KernelArgument>& arguments);

}  // namespace engine::detail
