#pragma once
// What lab 9's tests do with a puzzle: read the learner's .metal file, compile it with
// torch.mps.compile_shader, call its kernel and keep what the launch did (sim::KernelLaunch:
// device reads, threadgroup memory, time on the simulated GPU) for the budget checks. A check
// that cannot go on fails with what a learner needs to act on: Metal's diagnostics under the
// file's own name and line, or the emulator's report of a kernel that broke Metal's rules, with
// what that rule is for and the lesson cell that teaches it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

namespace torch = engine;     // read torch:: as in LibTorch
namespace py = engine::py;    // Python's own API, where LibTorch has none: py::torch::mps
namespace sim = engine::sim;  // the emulator's own: sim::KernelLaunch, sim::use_machine

namespace lab09 {

using engine::py::torch::mps::KernelArgument;
using engine::py::torch::mps::ShaderLibrary;

// The puzzle file `name` ("03_guard.metal") compiled, or nothing after a failed check that shows
// Metal's diagnostics. A file that still has a TODO("9.3", "...") line stops there first, as a
// TODO in a C++ lab does, and the report names it as the next thing to do.
std::optional<ShaderLibrary> compile_puzzle(std::string_view name);

// Calls `kernel` of `library` (compiled from the file `name`) with `arguments` and waits for it;
// nothing after a failed check when the kernel broke one of Metal's rules.
std::optional<engine::sim::KernelLaunch> run_kernel(const ShaderLibrary& library,
                                                    std::string_view name, std::string_view kernel,
                                                    const std::vector<KernelArgument>& arguments);

// Compares a kernel's output with what the engine's own operations computed (or values computed
// from them, where the engine has no operation for the puzzle, as for a pooling window); on a
// difference, fails the check naming the first element that differs and both values, then `why`.
void check_values(const engine::Tensor& got, const engine::Tensor& expected,
                  const std::string& why);
void check_values(const engine::Tensor& got, const std::vector<float>& expected,
                  const std::string& why);

}  // namespace lab09
