// %% [markdown] facts="32 KiB"
// # Lesson 10 · Writing a Metal kernel
//
// Every operation so far ran a kernel somebody else wrote: a Metal kernel of PyTorch's own or
// one of Apple's Metal Performance Shaders. When none of them does what you need, or does it in
// five passes over memory where one would do, you can write the kernel yourself.
// `torch.mps.compile_shader(source)` (in PyTorch's documentation since release 2.7) compiles
// Metal Shading Language (MSL), Apple's C++-based language for GPU code, at run time, and
// returns a library whose kernels you call with tensors and numbers like any Python function.
//
// If you have written CUDA, most of it will look familiar under other names:
//
// | CUDA | Metal |
// |---|---|
// | `__global__` function | `kernel` function |
// | thread block | threadgroup (at most 1,024 threads, 32 KiB of threadgroup memory) |
// | warp (32 threads) | SIMD group (32 threads on Apple GPUs) |
// | `__shared__` memory | `threadgroup` memory |
// | `__syncthreads()` | `threadgroup_barrier(mem_flags::mem_threadgroup)` |
// | `__shfl_down_sync`, a warp reduction | `simd_shuffle_down`, `simd_sum` |
// | `blockIdx`, `threadIdx` | `[[threadgroup_position_in_grid]]`, `[[thread_position_in_threadgroup]]` |
//
// The lesson comes in three sections, each a program of its own (`course run 10` runs them in
// order, `course run 10.2` one of them):
//
// 1. **A first kernel**: the kernel from PyTorch's documentation, what a compile error looks
//    like, one thread per element and the guard for the grid's tail, and threadgroups in two
//    dimensions.
// 2. **Fusing and reducing**: one kernel in place of a chain of PyTorch operations, timed on two
//    Macs; a row-wise softmax that cooperates through threadgroup memory and SIMD-group
//    functions; what a missing barrier does.
// 3. **Matrix products, and when a kernel is worth it**: a naive product against a tiled one
//    against MPS's own, why MPS wins, and the questions to ask before writing a kernel.
//
// **What the emulator does with your kernel.** It compiles the source with a Metal front end of
// its own and runs every thread of the grid on this computer's cpu, a threadgroup at a time with
// its SIMD groups in lockstep, so results are the values a Mac would compute. Where a Mac would
// silently compute garbage (a write past a buffer's end, two threads racing on threadgroup
// memory, a barrier some threads never reach) it stops and names the source line and the thread,
// as a debugger would. The time a kernel takes on the simulated GPU comes from the work it
// actually did: bytes moved to and from memory (a SIMD group's neighbouring accesses count
// once), arithmetic, barriers and how many threadgroups fit on a core at once, on each chip's
// published rates. It understands the MSL this course uses; `engine/metal/README.md` lists what
// it refuses.
//
// Terms the course uses before explaining them are in its glossary: `lesson10_1 --glossary`.

// %%
#pragma once

#include <cstdint>
#include <string>

#include <engine/notebook/lesson.h>

namespace torch = engine;   // the engine mirrors LibTorch: read torch:: as you would in LibTorch
namespace py = engine::py;  // Python's own, where LibTorch has none: py::str, py::time, py::torch::mps
namespace sim = engine::sim;  // the emulator's controls: its machines, processes, timelines

// The GPU's time for `work` in microseconds, on the device's own clock (lesson 5's events),
// after one untimed call that compiles what the first call compiles.
template <typename Work>
double gpu_us(const Work& work) {
  work();
  torch::mps::synchronize();
  py::torch::mps::Event start(true), end(true);
  start.record();
  work();
  end.record();
  return start.elapsed_time(end) * 1e3;
}

// An error as Python prints f"{type(error).__name__}: {error}".rstrip(): Metal's diagnostics end
// with a newline, which would print as an empty line.
std::string error_text(const torch::Error& error) {
  std::string text = py::format_exception_only(error);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}
// %% [python]
// import torch
//
//
// def gpu_us(work):
//     """The GPU's time for work() in microseconds, after one untimed call that compiles."""
//     work()
//     torch.mps.synchronize()
//     start, end = torch.mps.Event(enable_timing=True), torch.mps.Event(enable_timing=True)
//     start.record()
//     work()
//     end.record()
//     return start.elapsed_time(end) * 1e3
//
//
// def error_text(error):
//     return f"{type(error).__name__}: {error}".rstrip()
