#pragma once
// torch.mps.compile_shader(source) (torch/mps/__init__.py, torch/csrc/mps/Module.cpp,
// aten/src/ATen/native/mps/MetalShaderLibrary.h): Metal Shading Language compiled at run time
// into a library whose kernels are called with tensors and scalars. LibTorch has no spelling for
// it, so it is Python's, under py::torch::mps:
//   auto lib = py::torch::mps::compile_shader(source);      // lib = torch.mps.compile_shader(source)
//   lib.attr("full")(x, 3.14);                               // lib.full(x, 3.14)
//   lib.attr("full")(x, 3.14, py::arg("threads") = 8);      // lib.full(x, 3.14, threads=8)
// attr() is pybind11's spelling of Python's attribute access, py::arg its keyword argument.
// The kernels run in the emulator's Metal executor (engine/metal), on the tensors' own values,
// and are priced on the simulated GPU like MPS's own kernels (src/machine/shader_cost.cpp).
// The binding's rules and texts, and where the emulator is stricter than PyTorch:
// src/mps/shader_library.cpp.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "engine/tensor.h"

namespace engine::metal {
class Library;
class Kernel;
}  // namespace engine::metal

namespace engine::py {

// A keyword argument, as pybind11 spells one in C++: py::arg("threads") = 1024 is Python's
// threads=1024, py::arg("group_size") = {16, 16} is group_size=(16, 16).
class arg {
 public:
  using Value = std::variant<std::monostate, std::int64_t, std::vector<std::int64_t>, std::string,
                             std::map<unsigned, std::string>>;
  explicit arg(std::string name) : name_(std::move(name)) {}
  arg& operator=(std::int64_t value);
  arg& operator=(std::initializer_list<std::int64_t> values);
  arg& operator=(std::vector<std::int64_t> values);
  arg& operator=(std::string value);                      // arg_casts="fp16"
  arg& operator=(std::map<unsigned, std::string> value);  // arg_casts={1: "fp16"}
  arg& operator=(const char* value) { return *this = std::string(value); }

  const std::string& name() const noexcept { return name_; }
  const Value& value() const noexcept { return value_; }

 private:
  std::string name_;
  Value value_;
};

}  // namespace engine::py

namespace engine::py::torch::mps {

// One positional argument of a kernel call: a tensor, a Python float or int, a list of them.
class KernelArgument {
 public:
  KernelArgument(const Tensor& t) : value_(t) {}               // NOLINT: implicit, as Python's
  KernelArgument(double v) : value_(v) {}                      // NOLINT
  KernelArgument(float v) : value_(static_cast<double>(v)) {}  // NOLINT
  template <typename T>
  requires std::is_integral_v<T> KernelArgument(T v)  // NOLINT: a Python int (bool included)
      : value_(static_cast<std::int64_t>(v)) {}
  KernelArgument(std::vector<std::int64_t> v) : value_(std::move(v)) {}  // NOLINT
  KernelArgument(std::vector<double> v) : value_(std::move(v)) {}        // NOLINT
  KernelArgument(const arg& keyword) : value_(keyword) {}                // NOLINT

  using Value = std::variant<Tensor, double, std::int64_t, std::vector<std::int64_t>,
                             std::vector<double>, arg>;
  const Value& value() const noexcept { return value_; }

 private:
  Value value_;
};

// torch._C._mps_MetalKernel: one kernel of a library. Calling it binds the positional
// arguments to buffer indices 0, 1, ... and dispatches `threads` threads (by default the first
// tensor's numel) in threadgroups of `group_size` (by default as many as fit, up to 1,024).
class MetalKernel {
 public:
  explicit MetalKernel(std::shared_ptr<const metal::Kernel> kernel);

  template <typename... Args>
  void operator()(const Args&... args) const {
    call({KernelArgument(args)...});
  }
  void call(const std::vector<KernelArgument>& arguments) const;

  // MTLComputePipelineState's maxTotalThreadsPerThreadgroup, threadExecutionWidth and
  // staticThreadgroupMemoryLength.
  std::int64_t max_threads_per_threadgroup() const;
  std::int64_t thread_execution_width() const;
  std::int64_t static_thread_group_memory_length() const;

 private:
  std::shared_ptr<const metal::Kernel> kernel_;
};

// torch._C._mps_ShaderLibrary: a compiled library.
class ShaderLibrary {
 public:
  explicit ShaderLibrary(std::shared_ptr<const metal::Library> library);
  // lib.name: the kernel of that name; a name the library has no kernel of raises
  // RuntimeError "Failed to create function state object for: name", as PyTorch does.
  MetalKernel attr(std::string_view name) const;
  // dir(lib): the kernel functions, in source order.
  std::vector<std::string> dir() const;

 private:
  std::shared_ptr<const metal::Library> library_;
};

// Compiles `source`; source Metal's compiler rejects raises SyntaxError with its diagnostics
// ("program_source:1:1: error: unknown type name 'What'" and so on).
ShaderLibrary compile_shader(std::string_view source);

}  // namespace engine::py::torch::mps
