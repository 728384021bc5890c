#pragma once
// Internal: the arguments of a compile_shader kernel call as the bytes Metal receives
// (OptionalArgCaster in torch/csrc/mps/Module.cpp), and the emulator's check of what each
// buffer of the kernel receives (Note [Where the emulator is stricter than compile_shader] in
// kernel_call.h).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/metal/element_type.h"
#include "mps/kernel_call.h"

namespace engine::detail {

// arg_casts: one cast for every argument ("fp16"), or casts by argument index ({1: "fp16"}).
struct Casts {
  std::string all;
  std::map<unsigned, std::string> by_index;
  const std::string& cast_for(unsigned index) const;
};

// What one positional argument gave the kernel.
struct BoundValue {
  std::string label;  // "a torch.float32 tensor of 16 values", "the Python float 3.14"
  std::optional<ScalarType> dtype;                    // a tensor's
  metal::ScalarKind kind = metal::ScalarKind::Float;  // otherwise: the element of its bytes
  bool list = false;
  std::optional<std::int64_t> integer;  // an uncast Python int's value
};

// A Python float, int or list of them (a KernelArgument that is not a tensor or a keyword) as
// setBytes would receive it, converted as `casts` says for argument `index`.
BoundValue encode_argument(const py::torch::mps::KernelArgument::Value& value, const Casts& casts,
                           unsigned index, std::vector<std::byte>& bytes);
BoundValue tensor_value(const Tensor& t);

// Checks each of the kernel's buffers against what the call binds there, then binds them.
void bind_buffers(const metal::Kernel& kernel, KernelCall& call,
                  const std::vector<BoundValue>& values);

}  // namespace engine::detail
