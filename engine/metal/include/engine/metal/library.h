#pragma once
// A Metal library compiled at run time from Metal Shading Language source, as
// MTLDevice.newLibraryWithSource compiles one: the kernels it exports and how each is bound.
// The front end (lexer, parser, checker) accepts the subset of MSL that engine/metal/README.md
// lists and refuses the rest with a diagnostic naming the construct, in the form Metal's
// compiler reports errors:
//   program_source:3:5: error: use of undeclared identifier 'idx'
//       out[idx] = val;
//           ^

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/metal/element_type.h"

namespace engine::metal {

// What newLibraryWithSource's error describes: the diagnostics, one per error, each with its
// source line and a caret under the column.
class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A kernel parameter that the host binds: `device float* out` or `constant float& val`, bound
// to the buffer index its position among the buffers gives it, or its [[buffer(n)]].
struct BufferParameter {
  std::string name;         // "out"
  std::string declaration;  // "device float *out", as the diagnostics spell types
  int index = 0;            // the buffer index the host binds
  ElementType element;      // what each element is
  bool writable = false;    // device memory, not const
  bool single = false;      // a reference (`constant float&`): one element, not an array
};

namespace detail {
struct Program;
struct Function;
}  // namespace detail

// A kernel function of a library: what MTLComputePipelineState knows about it.
class Kernel {
 public:
  Kernel(std::shared_ptr<const detail::Program> program, const detail::Function* function);
  const std::string& name() const;
  const std::vector<BufferParameter>& buffers() const;
  // The bytes of threadgroup memory its threadgroup variables take (staticThreadgroupMemoryLength).
  std::int64_t threadgroup_memory_length() const;

  const detail::Program& program() const { return *program_; }
  const detail::Function& function() const { return *function_; }

 private:
  std::shared_ptr<const detail::Program> program_;
  const detail::Function* function_;
};

class Library {
 public:
  // Compiles `source`; throws CompileError with the diagnostics of the first error.
  static Library compile(std::string_view source);
  // The kernel functions, in the order the source defines them (MTLLibrary.functionNames).
  std::vector<std::string> function_names() const;
  // The kernel of that name; nullptr when there is none (a helper function is not exported).
  std::shared_ptr<const Kernel> find_kernel(std::string_view name) const;

 private:
  explicit Library(std::shared_ptr<const detail::Program> program);
  std::shared_ptr<const detail::Program> program_;
};

}  // namespace engine::metal
