// %% [markdown]
// # 10.1 · A first kernel
//
// The kernel from PyTorch's documentation, taken apart: how a call binds its arguments, how
// many threads run, what a mistake in the source looks like, and how threads find their
// element when there are more threads than elements or the work has two dimensions.

// %%
#include "shared.h"  // gpu_us() and error_text()

// %% [markdown]
// ## The kernel from PyTorch's documentation
//
// The source is a string. `compile_shader` hands it to Metal's compiler, and the library it
// returns has one attribute per `kernel` function in it.

// %% fill_with_a_kernel requires="mps"
TUTOR_CELL("a kernel of four lines fills a tensor with 3.14") {
  const auto lib = py::torch::mps::compile_shader(R"(
kernel void full(
    device float* out,
    constant float& val,
    uint idx [[thread_position_in_grid]]
) {
    out[idx] = val;
}
)");
  const auto x = torch::zeros({16}, torch::Device("mps"));
  lib.attr("full")(x, 3.14);
  torch::mps::synchronize();
  print(x);
}
// %% [output]
// tensor([3.1400, 3.1400, 3.1400, 3.1400, 3.1400, 3.1400, 3.1400, 3.1400, 3.1400,
//         3.1400, 3.1400, 3.1400, 3.1400, 3.1400, 3.1400, 3.1400],
//        device='mps:0')
// %% [python]
// shader_source = """
// kernel void full(
//     device float* out,
//     constant float& val,
//     uint idx [[thread_position_in_grid]]
// ) {
//     out[idx] = val;
// }
// """
// lib = torch.mps.compile_shader(shader_source)
// x = torch.zeros(16, device="mps")
// lib.full(x, 3.14)
// torch.mps.synchronize()
// print(x)

// %% [markdown]
// Read the kernel's signature from left to right:
//
// - `kernel void full(...)`: a function the host can launch. It returns nothing; its results are
//   what it writes.
// - `device float* out`: a pointer into GPU memory that the kernel may write. A call binds its
//   arguments by position: the first (`x`) to the first buffer, here `out`, the tensor's own
//   storage, so the kernel writes the tensor in place.
// - `constant float& val`: a read-only value. The Python float 3.14 is passed as the four bytes
//   of a 32-bit float. An int would be passed as 8 bytes, and a kernel reading them as `float`
//   would read garbage, so match the parameter's type to the argument's (the emulator refuses
//   such a call; PyTorch makes it).
// - `uint idx [[thread_position_in_grid]]`: not an argument at all but a value Metal fills in
//   for each thread, its position in the grid of threads. The attribute in double brackets says
//   which position.
//
// How many threads? Without a `threads=` argument, PyTorch launches one per element of the first
// tensor argument (16), in threadgroups of as many as fit, up to the limit below. The kernel's
// pipeline reports that limit, the width of a SIMD group, and how much threadgroup memory the
// kernel declares.

// %% a_kernels_limits requires="mps"
TUTOR_CELL("a kernel's pipeline reports its limits") {
  const auto lib = py::torch::mps::compile_shader(
      "kernel void full(device float* out, constant float& val,"
      "                 uint idx [[thread_position_in_grid]]) { out[idx] = val; }");
  const auto full = lib.attr("full");
  print("max_threads_per_threadgroup:", full.max_threads_per_threadgroup());
  print("thread_execution_width:", full.thread_execution_width());
  print("static_thread_group_memory_length:", full.static_thread_group_memory_length());
}
// %% [output]
// max_threads_per_threadgroup: 1024
// thread_execution_width: 32
// static_thread_group_memory_length: 0
// %% [python]
// lib = torch.mps.compile_shader(
//     "kernel void full(device float* out, constant float& val,"
//     "                 uint idx [[thread_position_in_grid]]) { out[idx] = val; }")
// print("max_threads_per_threadgroup:", lib.full.max_threads_per_threadgroup)
// print("thread_execution_width:", lib.full.thread_execution_width)
// print("static_thread_group_memory_length:", lib.full.static_thread_group_memory_length)

// %% [markdown]
// The thread execution width is the SIMD group: 32 threads that execute each instruction
// together, as a CUDA warp does. Where threads of one SIMD group take different branches of an
// `if`, the group runs both branches one after the other, each with the other's threads idle.
//
// ## When the source does not compile
//
// Metal compiles the source when `compile_shader` is called, not when the kernel first runs, and
// PyTorch raises its diagnostics as a `SyntaxError`: the line and column in the source
// (`program_source:LINE:COLUMN`), the line itself and a caret under the mistake. Here a guard
// reads a length the kernel was never given.

// %% a_compile_error requires="mps"
TUTOR_CELL("Metal's diagnostics come back as a SyntaxError") {
  try {
    py::torch::mps::compile_shader(R"(
kernel void full(device float* out, constant float& val,
                 uint idx [[thread_position_in_grid]]) {
    if (idx >= numel) return;
    out[idx] = val;
}
)");
  } catch (const torch::Error& error) {
    print(error_text(error));
  }
}
// %% [output]
// SyntaxError: program_source:4:16: error: use of undeclared identifier 'numel'
//     if (idx >= numel) return;
//                ^
// %% [python]
// try:
//     torch.mps.compile_shader("""
// kernel void full(device float* out, constant float& val,
//                  uint idx [[thread_position_in_grid]]) {
//     if (idx >= numel) return;
//     out[idx] = val;
// }
// """)
// except SyntaxError as error:
//     print(error_text(error))

// %% [markdown]
// ## More threads than elements: the guard
//
// One thread per element is the simplest plan, and PyTorch's default gives exactly that. Many
// kernels launch more: a grid rounded up to whole threadgroups of 256, as CUDA code must, or a
// reduction that wants full SIMD groups. The extra threads at the grid's tail have no element,
// and a kernel that does not check writes past the tensor's end. Metal does not check for you:
// on a Mac the write lands in whatever memory follows the tensor, or nowhere, without a word.
// The emulator stops at the first access past the end and names the thread and the line.

// %% the_grids_tail requires="mps"
TUTOR_CELL("threads past the last element need a guard") {
  const auto lib = py::torch::mps::compile_shader(R"(
kernel void scale(device float* x, constant float& factor,
                  uint i [[thread_position_in_grid]]) {
    x[i] *= factor;
}

kernel void scale_guarded(device float* x, constant float& factor, constant uint& n,
                          uint i [[thread_position_in_grid]]) {
    if (i >= n) return;  // the grid's tail: no element for this thread
    x[i] *= factor;
}
)");
  const auto x = torch::ones({1000}, torch::Device("mps"));
  const std::int64_t threads = (1000 + 255) / 256 * 256;  // whole threadgroups of 256
  print("threads launched:", threads);
  try {
    lib.attr("scale")(x, 2.0, py::arg("threads") = threads, py::arg("group_size") = 256);
    torch::mps::synchronize();
  } catch (const torch::Error& error) {
    print(error_text(error));
  }
  const auto y = torch::ones({1000}, torch::Device("mps"));
  lib.attr("scale_guarded")(y, 2.0, 1000, py::arg("threads") = threads,
                            py::arg("group_size") = 256);
  print("guarded: sum of y =", y.sum().item<float>());
}
// %% [output]
// threads launched: 1024
// RuntimeError: program_source:4:5: error: thread 1000 of the grid (thread 232 of threadgroup 3): out-of-bounds read of x[1000] (buffer(0): a torch.float32 tensor of 1000 values), past its end
//     x[i] *= factor;
//     ^
// guarded: sum of y = 2000.0
// %% [python]
// lib = torch.mps.compile_shader("""
// kernel void scale(device float* x, constant float& factor,
//                   uint i [[thread_position_in_grid]]) {
//     x[i] *= factor;
// }
//
// kernel void scale_guarded(device float* x, constant float& factor, constant uint& n,
//                           uint i [[thread_position_in_grid]]) {
//     if (i >= n) return;  // the grid's tail: no element for this thread
//     x[i] *= factor;
// }
// """)
// x = torch.ones(1000, device="mps")
// threads = (1000 + 255) // 256 * 256  # whole threadgroups of 256
// print("threads launched:", threads)
// try:
//     # on a Mac, this call writes past x's end without a word
//     lib.scale(x, 2.0, threads=threads, group_size=256)
//     torch.mps.synchronize()
// except RuntimeError as error:
//     print(error_text(error))
// y = torch.ones(1000, device="mps")
// lib.scale_guarded(y, 2.0, 1000, threads=threads, group_size=256)
// print("guarded: sum of y =", y.sum().item())

// %% [markdown]
// The guard needs the element count, and a kernel knows only what it is passed, so the count is
// an argument: the Python int 1000, bound to `constant uint& n` (a Python int travels as 8
// bytes; Apple GPUs are little-endian, so a `uint` reads its low four, the value itself).
//
// ## Two dimensions: grids and threadgroups
//
// `threads` and `group_size` take up to three sizes, x first (the fastest-moving index, a row's
// columns), then y and z. Each thread then has a position in two or three dimensions, in the
// grid and within its threadgroup, and its threadgroup has one in the grid of threadgroups. The
// kernel below writes, at each element of a 4 × 8 tensor, the number of the threadgroup whose
// thread handled it, for a grid of 8 × 4 threads in threadgroups of 4 × 2.

// %% threadgroups_in_two_dimensions requires="mps"
TUTOR_CELL("a grid of 8 x 4 threads in threadgroups of 4 x 2") {
  const auto lib = py::torch::mps::compile_shader(R"(
kernel void which_group(device float* out,
                        uint2 position [[thread_position_in_grid]],
                        uint2 group [[threadgroup_position_in_grid]],
                        uint2 groups [[threadgroups_per_grid]],
                        uint2 grid [[threads_per_grid]]) {
    out[position.y * grid.x + position.x] = float(group.y * groups.x + group.x);
}
)");
  const auto out = torch::zeros({4, 8}, torch::Device("mps"));
  lib.attr("which_group")(out, py::arg("threads") = {8, 4}, py::arg("group_size") = {4, 2});
  print(out);
}
// %% [output]
// tensor([[0., 0., 0., 0., 1., 1., 1., 1.],
//         [0., 0., 0., 0., 1., 1., 1., 1.],
//         [2., 2., 2., 2., 3., 3., 3., 3.],
//         [2., 2., 2., 2., 3., 3., 3., 3.]], device='mps:0')
// %% [python]
// lib = torch.mps.compile_shader("""
// kernel void which_group(device float* out,
//                         uint2 position [[thread_position_in_grid]],
//                         uint2 group [[threadgroup_position_in_grid]],
//                         uint2 groups [[threadgroups_per_grid]],
//                         uint2 grid [[threads_per_grid]]) {
//     out[position.y * grid.x + position.x] = float(group.y * groups.x + group.x);
// }
// """)
// out = torch.zeros(4, 8, device="mps")
// lib.which_group(out, threads=(8, 4), group_size=(4, 2))
// print(out)

// %% [markdown] facts="32 KiB"
// Four threadgroups of eight threads tile the tensor in blocks of 2 rows × 4 columns. Without
// `group_size`, a two- or three-dimensional grid gets threadgroups of 1,024 × 1 × 1 threads,
// strips along a row: fine for elementwise work, wrong for the tiles of section 10.3, which need
// a square block of threads to share data. Two limits bind every threadgroup, on every Apple GPU
// of the Apple7 family and later (Apple's Metal feature set tables): at most 1,024 threads and
// 32 KiB of `threadgroup` memory. PyTorch refuses a larger `group_size` before Metal sees it.
