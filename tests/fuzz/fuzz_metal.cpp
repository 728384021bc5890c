// Fuzz target: the Metal Shading Language front end (engine/metal), on any text. Source it
// cannot compile must be a CompileError; a library it compiles must run each kernel on a tiny
// grid to a result, a KernelFault or a refused launch: never a crash, a hang or undefined
// behaviour.

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "engine/metal/dispatch.h"
#include "engine/metal/library.h"

namespace {

void run_kernels(const engine::metal::Library& library) {
  for (const std::string& name : library.function_names()) {
    const auto kernel = library.find_kernel(name);
    std::vector<std::array<std::byte, 64>> memory(31);
    std::vector<engine::metal::BufferBinding> bindings(31);
    for (std::size_t i = 0; i < bindings.size(); ++i)
      bindings[i] = {memory[i], "a fuzz buffer", true};
    try {
      engine::metal::dispatch(*kernel, bindings, {4, 1, 1}, {2, 1, 1});
    } catch (const engine::metal::KernelFault&) {
    } catch (const std::invalid_argument&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  try {
    run_kernels(engine::metal::Library::compile(source));
  } catch (const engine::metal::CompileError&) {
  }
  return 0;
}
