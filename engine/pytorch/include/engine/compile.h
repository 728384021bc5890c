#pragma once
// torch.compile(model) (torch/_dynamo/eval_frame.py with TorchInductor, the default backend):
// LibTorch has no compiler, so py::torch::compile is the emulator's stand-in for Python's
//   model = torch.compile(model)
// It wraps a module; calling the wrapper runs the module's forward as torch.compile runs it:
//   - the first call in each mode (with autograd recording, or under no_grad) compiles a graph
//     on the host: Dynamo traces the forward, AOTAutograd and Inductor lower it, Metal compiles
//     the generated kernels. The backward graph is compiled the first time backward runs
//     through it. Compiling takes host time that grows with the size of the graph;
//   - later calls run the compiled graph: matrix products call the same MPS kernels as eager
//     mode, everything else runs as Inductor's generated Metal kernels, fused.
// The values are the eager ones (a compiled graph computes the same function; its random
// numbers differ, as Inductor's do). Only mps work is compiled; cpu work runs as in eager mode.
// The costs, and where they come from: engine/pytorch/src/mps/compiled_region.cpp.

#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace engine {
namespace detail {

struct CompileCache;  // the graphs one wrapper has compiled, by mode
std::shared_ptr<CompileCache> make_compile_cache();
// Runs `forward` as the compiled graph for the current mode, compiling it first if needed.
void run_compiled(CompileCache& cache, const std::function<void()>& forward);

}  // namespace detail

namespace py::torch {

template <typename Module>
class CompiledModule {
 public:
  explicit CompiledModule(Module module)
      : module_(std::move(module)), cache_(detail::make_compile_cache()) {}

  template <typename... Args>
  auto operator()(const Args&... args) const {
    std::optional<decltype(module_(args...))> result;
    detail::run_compiled(*cache_, [&] { result = module_(args...); });
    return *std::move(result);
  }
  auto operator->() const { return module_.operator->(); }
  // The module it wraps: Python's compiled_model._orig_mod.
  const Module& original() const noexcept { return module_; }

 private:
  Module module_;
  std::shared_ptr<detail::CompileCache> cache_;
};

template <typename Module>
CompiledModule<Module> compile(Module module) {
  return CompiledModule<Module>(std::move(module));
}

}  // namespace py::torch
}  // namespace engine
