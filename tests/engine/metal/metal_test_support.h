#pragma once
// Helpers of the Metal front end's tests: compile MSL, bind plain byte buffers, dispatch, and
// read back values or the text of an error.

#include <cstddef>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/metal/dispatch.h"
#include "engine/metal/library.h"

namespace metal_test {

using engine::metal::Size3;

// A buffer of values of one C++ type, bound at one index.
struct Buffer {
  std::vector<std::byte> bytes;
  std::string label = "a test buffer";

  template <typename T>
  static Buffer of(const std::vector<T>& values) {
    Buffer b;
    b.bytes.resize(values.size() * sizeof(T));
    std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
    return b;
  }
  template <typename T>
  static Buffer zeros(std::size_t count) {
    return of(std::vector<T>(count, T{}));
  }
  template <typename T>
  std::vector<T> values() const {
    std::vector<T> out(bytes.size() / sizeof(T));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
};

// Runs kernel `name` of `source` with `buffers` at indices 0, 1, ...
inline engine::metal::DispatchWork run(std::string_view source, std::string_view name,
                                       std::vector<Buffer*> buffers, Size3 grid, Size3 group) {
  const auto library = engine::metal::Library::compile(source);
  const auto kernel = library.find_kernel(name);
  if (!kernel) throw std::invalid_argument("no kernel " + std::string(name));
  std::vector<engine::metal::BufferBinding> bindings;
  for (Buffer* b : buffers)
    bindings.push_back({.bytes = b->bytes, .label = b->label, .bound = true});
  return engine::metal::dispatch(*kernel, bindings, grid, group);
}

// Runs a one-dimensional dispatch of `threads` threads in groups of `group`.
inline engine::metal::DispatchWork run_1d(std::string_view source, std::string_view name,
                                          std::vector<Buffer*> buffers, std::uint64_t threads,
                                          std::uint64_t group) {
  return run(source, name, std::move(buffers), {threads, 1, 1}, {group, 1, 1});
}

// The diagnostics compiling `source` gives, or "compiled" when it compiles.
inline std::string compile_error(std::string_view source) {
  try {
    engine::metal::Library::compile(source);
  } catch (const engine::metal::CompileError& e) {
    return e.what();
  }
  return "compiled";
}

// The first line of the compile error: "program_source:L:C: error: ...".
inline std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The text of the KernelFault `action` throws, or "no fault".
template <typename Action>
std::string fault_of(const Action& action) {
  try {
    action();
  } catch (const engine::metal::KernelFault& e) {
    return e.what();
  }
  return "no fault";
}

}  // namespace metal_test
