// Binding a compile_shader kernel's call (kernel_call.h): torch/csrc/mps/Module.cpp's __call__
// and OptionalArgCaster, and MetalKernelFunction::dispatch (aten/src/ATen/native/mps/
// OperationUtils.mm), with their texts; then the emulator's own checks (Note [Where the
// emulator is stricter than compile_shader]).

#include "mps/kernel_call.h"

#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "engine/errors.h"
#include "mps/kernel_bytes.h"
#include "tensor/tensor_impl.h"

namespace engine::detail {
namespace {

using py::torch::mps::KernelArgument;
using Sizes = std::optional<std::vector<std::uint64_t>>;

// What TORCH_CHECK(condition) says when it has no message of its own (c10/util/Exception.h).
std::string failed_check(const std::string& condition) {
  return "Expected " + condition +
         " to be true, but got false.  (Could this error message be improved?  If so, please "
         "report an enhancement request to PyTorch.)";
}

struct Keywords {
  const py::arg* threads = nullptr;
  const py::arg* group_size = nullptr;
  const py::arg* arg_casts = nullptr;
};

// The keyword arguments, checked as Python checks a call (they come last, once each) and as
// pybind11 checks __call__'s signature.
Keywords split_keywords(const std::vector<KernelArgument>& arguments,
                        std::vector<const KernelArgument*>& positional) {
  Keywords keywords;
  for (const KernelArgument& a : arguments) {
    const auto* keyword = std::get_if<py::arg>(&a.value());
    if (!keyword) {
      if (keywords.threads || keywords.group_size || keywords.arg_casts)
        throw SyntaxError("positional argument follows keyword argument");
      positional.push_back(&a);
      continue;
    }
    const py::arg** slot = keyword->name() == "threads"      ? &keywords.threads
                           : keyword->name() == "group_size" ? &keywords.group_size
                           : keyword->name() == "arg_casts"  ? &keywords.arg_casts
                                                             : nullptr;
    if (!slot) {
      // pybind11's text, without the list of the arguments it was invoked with.
      throw TypeError(
          "__call__(): incompatible function arguments. The following argument types are "
          "supported:\n    1. (self: torch._C._mps_MetalKernel, *args, threads: object = None, "
          "group_size: object = None, arg_casts: object = None) -> None");
    }
    if (*slot) throw SyntaxError("keyword argument repeated: " + keyword->name());
    *slot = keyword;
  }
  return keywords;
}

// optional_vec_from_pyobject: None, an int, or a list of one to three ints.
Sizes sizes_of(const py::arg* keyword) {
  if (!keyword || std::holds_alternative<std::monostate>(keyword->value())) return std::nullopt;
  const auto to_size = [&](std::int64_t v) {
    if (v < 0) throw Error(keyword->name() + " must not be negative, got " + std::to_string(v));
    return static_cast<std::uint64_t>(v);
  };
  if (const auto* one = std::get_if<std::int64_t>(&keyword->value()))
    return std::vector{to_size(*one)};
  const auto* many = std::get_if<std::vector<std::int64_t>>(&keyword->value());
  if (!many) throw TypeError(keyword->name() + " takes an int or a tuple of ints");
  if (many->empty() || many->size() > 3)
    throw Error(failed_check("vec.size() > 0 && vec.size() < 4"));
  std::vector<std::uint64_t> sizes;
  for (const std::int64_t v : *many) sizes.push_back(to_size(v));
  return sizes;
}

// OptionalArgCaster's constructor: arg_casts is None, a str or a dict.
Casts casts_of(const py::arg* keyword) {
  Casts casts;
  if (!keyword) return casts;
  const auto& value = keyword->value();
  if (const auto* all = std::get_if<std::string>(&value)) {
    casts.all = *all;
  } else if (const auto* some = std::get_if<std::map<unsigned, std::string>>(&value)) {
    casts.by_index = *some;
  } else if (!std::holds_alternative<std::monostate>(value)) {
    throw Error(std::string("Unexpected caster arg type ") +
                (std::holds_alternative<std::int64_t>(value) ? "int" : "tuple"));
  }
  return casts;
}

// A tensor argument: an mps tensor's own bytes; a 0-dim cpu tensor's value (mtl_setBuffer).
void bind_tensor(KernelCall& call, unsigned index, const Tensor& t) {
  require_values(t, "a compile_shader kernel");
  if (t.is_cpu()) {
    if (t.dim() != 0) throw Error("Passed CPU tensor to MPS op");
    const auto* data = reinterpret_cast<const std::byte*>(t.impl().storage->data()) +
                       t.impl().offset * t.element_size();
    call.bytes[index].assign(data, data + t.element_size());
  }
  call.tensors[index] = t;
}

// MetalKernelFunction::dispatch: one dimension, or two and three.
void set_grid(KernelCall& call, const Sizes& threads, const Sizes& group_size) {
  if (!threads || threads->size() >= 4)
    throw Error("Number of threads is undefined or has wrong dimention");
  if (group_size && threads->size() != group_size->size())
    throw Error(failed_check("!group_size.has_value() || threads->size() == group_size->size()"));
  const std::uint64_t max = metal::kMaxThreadsPerThreadgroup;
  const auto at = [](const std::vector<std::uint64_t>& v, std::size_t i) {
    return i < v.size() ? v[i] : 1;
  };
  call.grid = {at(*threads, 0), at(*threads, 1), at(*threads, 2)};
  if (threads->size() == 1) {
    call.group = {group_size ? group_size->at(0) : std::min(call.grid.width, max), 1, 1};
  } else {
    call.group = group_size
                     ? metal::Size3{at(*group_size, 0), at(*group_size, 1), at(*group_size, 2)}
                     : metal::Size3{max, 1, 1};
  }
  if (call.group.count() > max)
    throw ValueError("Threadgroup size exceeds " + std::to_string(max) + " limit");
}

}  // namespace

KernelCall bind_kernel_call(const metal::Kernel& kernel,
                            const std::vector<KernelArgument>& arguments) {
  std::vector<const KernelArgument*> positional;
  const Keywords keywords = split_keywords(arguments, positional);
  Sizes threads = sizes_of(keywords.threads);
  const Sizes group_size = sizes_of(keywords.group_size);
  const Casts casts = casts_of(keywords.arg_casts);
  KernelCall call;
  call.bytes.resize(positional.size());
  call.tensors.resize(positional.size());
  std::vector<BoundValue> values;
  for (unsigned index = 0; index < positional.size(); ++index) {
    const auto& value = positional[index]->value();
    if (const auto* t = std::get_if<Tensor>(&value)) {
      bind_tensor(call, index, *t);
      if (!threads) threads = std::vector{static_cast<std::uint64_t>(t->numel())};
      values.push_back(tensor_value(*t));
    } else {
      values.push_back(encode_argument(value, casts, index, call.bytes[index]));
    }
  }
  set_grid(call, threads, group_size);
  bind_buffers(kernel, call, values);
  return call;
}

}  // namespace engine::detail
