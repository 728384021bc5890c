// %% [markdown]
// # 10.3 · Matrix products, and when a kernel is worth it
//
// The operation that dominates deep learning, written twice in Metal and set against MPS's own:
// why the second kernel beats the first, why neither comes close to MPS on large matrices, and
// the questions to ask before writing a kernel of your own.

// %%
#include "shared.h"  // gpu_us()

// The three matrix products of this section, as one library.
constexpr const char* kMatmulSource = R"(
#include <metal_stdlib>
using namespace metal;

// One thread per element of c: a row of a times a column of b, from device memory.
kernel void matmul_naive(const device float* a, const device float* b,
                         device float* c, constant uint& n,
                         uint2 g [[thread_position_in_grid]]) {
    float sum = 0.0f;
    for (uint k = 0; k < n; ++k) sum += a[g.y * n + k] * b[k * n + g.x];
    c[g.y * n + g.x] = sum;
}

// The same, a 16 x 16 tile at a time: each thread copies one element of a's tile
// and one of b's into threadgroup memory, where the group's 256 threads read them.
kernel void matmul_tiled(const device float* a, const device float* b,
                         device float* c, constant uint& n,
                         uint2 g [[thread_position_in_grid]],
                         uint2 t [[thread_position_in_threadgroup]]) {
    threadgroup float tile_a[16][16];
    threadgroup float tile_b[16][16];
    float sum = 0.0f;
    for (uint k0 = 0; k0 < n; k0 += 16) {
        tile_a[t.y][t.x] = a[g.y * n + k0 + t.x];
        tile_b[t.y][t.x] = b[(k0 + t.y) * n + g.x];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint k = 0; k < 16; ++k) sum += tile_a[t.y][k] * tile_b[k][t.x];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    c[g.y * n + g.x] = sum;
}
)";
// %% [python]
// MATMUL_SOURCE = """
// #include <metal_stdlib>
// using namespace metal;
//
// // One thread per element of c: a row of a times a column of b, from device memory.
// kernel void matmul_naive(const device float* a, const device float* b,
//                          device float* c, constant uint& n,
//                          uint2 g [[thread_position_in_grid]]) {
//     float sum = 0.0f;
//     for (uint k = 0; k < n; ++k) sum += a[g.y * n + k] * b[k * n + g.x];
//     c[g.y * n + g.x] = sum;
// }
//
// // The same, a 16 x 16 tile at a time: each thread copies one element of a's tile
// // and one of b's into threadgroup memory, where the group's 256 threads read them.
// kernel void matmul_tiled(const device float* a, const device float* b,
//                          device float* c, constant uint& n,
//                          uint2 g [[thread_position_in_grid]],
//                          uint2 t [[thread_position_in_threadgroup]]) {
//     threadgroup float tile_a[16][16];
//     threadgroup float tile_b[16][16];
//     float sum = 0.0f;
//     for (uint k0 = 0; k0 < n; k0 += 16) {
//         tile_a[t.y][t.x] = a[g.y * n + k0 + t.x];
//         tile_b[t.y][t.x] = b[(k0 + t.y) * n + g.x];
//         threadgroup_barrier(mem_flags::mem_threadgroup);
//         for (uint k = 0; k < 16; ++k) sum += tile_a[t.y][k] * tile_b[k][t.x];
//         threadgroup_barrier(mem_flags::mem_threadgroup);
//     }
//     c[g.y * n + g.x] = sum;
// }
// """

// %% [markdown]
// ## Naive, tiled, and MPS's own
//
// `matmul_naive` gives each thread one element of the result: a dot product of a row of `a`
// and a column of `b`, `n` multiply-adds, every operand read from device memory. Each element of
// `a` and `b` is read `n` times over, by different threads; the GPU's caches catch much of it,
// but each SIMD group still issues two loads for every multiply-add.
//
// `matmul_tiled` has a threadgroup of 16 × 16 threads compute a 16 × 16 block of the result. For
// each step of 16 along the shared dimension, every thread copies one element of `a` and one of
// `b` into threadgroup memory; after a barrier, each thread does 16 multiply-adds from there, and
// a second barrier keeps the next copy from overwriting a tile somebody is still reading. Each
// element loaded from device memory now serves 16 threads.

// %% three_products requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("naive, tiled and MPS's own product of two small matrices") {
  const auto lib = py::torch::mps::compile_shader(kMatmulSource);
  const torch::Device mps("mps");
  for (const std::int64_t n : {64, 128}) {
    const auto a = torch::randn({n, n}, mps), b = torch::randn({n, n}, mps);
    const auto c = torch::zeros({n, n}, mps);
    const auto run = [&](const char* kernel) {
      return gpu_us([&] {
        lib.attr(kernel)(a, b, c, n, py::arg("threads") = {n, n},
                         py::arg("group_size") = {16, 16});
      });
    };
    const double naive = run("matmul_naive"), tiled = run("matmul_tiled");
    const double mps_us = gpu_us([&] { a.matmul(b); });
    const bool same = torch::allclose(c, a.matmul(b), 1e-4, 1e-4);
    print(fmt::format("n = {:3}: naive {:5.1f} µs, tiled {:5.1f} µs, MPS {:5.1f} µs; "
                      "tiled = MPS: {}", n, naive, tiled, mps_us, py::str(same)));
  }
}
// %% [output]
// n =  64: naive  30.7 µs, tiled  11.6 µs, MPS  26.4 µs; tiled = MPS: True
// n = 128: naive  57.0 µs, tiled  12.2 µs, MPS  26.8 µs; tiled = MPS: True
// %% [output] machine="m1-8gb"
// n =  64: naive  33.5 µs, tiled  14.2 µs, MPS  32.8 µs; tiled = MPS: True
// n = 128: naive 159.0 µs, tiled  18.3 µs, MPS  35.3 µs; tiled = MPS: True
// %% [python]
// lib = torch.mps.compile_shader(MATMUL_SOURCE)
// for n in (64, 128):
//     a, b = torch.randn(n, n, device="mps"), torch.randn(n, n, device="mps")
//     c = torch.zeros(n, n, device="mps")
//
//     def run(kernel):
//         launch = getattr(lib, kernel)
//         return gpu_us(lambda: launch(a, b, c, n, threads=(n, n), group_size=(16, 16)))
//
//     naive, tiled = run("matmul_naive"), run("matmul_tiled")
//     mps_us = gpu_us(lambda: a @ b)
//     same = torch.allclose(c, a @ b, 1e-4, 1e-4)
//     print(f"n = {n:3}: naive {naive:5.1f} µs, tiled {tiled:5.1f} µs, MPS {mps_us:5.1f} µs; "
//           f"tiled = MPS: {same}")

// %% [markdown] facts="16 µs, 1 µs"
// ## Why MPS wins on large matrices
//
// At these sizes the tiled kernel comes first, and by a wide margin on the M1: MPS runs a matrix
// product as an MPSGraph, whose encoding alone costs the host about 16 µs, while a
// `compile_shader` kernel is queued in about 1 µs, and the products are too small to keep the
// GPU busy for long. Small products are where a simple kernel of your own can win.
//
// Large products are another matter. Count what the tiled kernel's inner loop asks of a GPU
// core: two reads of threadgroup memory for every multiply-add. A core of an Apple GPU issues
// four SIMD-group instructions a cycle to its 128 ALUs, but serves far fewer threadgroup-memory
// accesses, so the kernel waits on threadgroup memory at a fraction of the ALUs' rate whatever
// the size: the emulator's cost model, with one SIMD-group access a cycle, puts that ceiling at
// an eighth of the float32 peak. MPS's products, like the published kernels that match them
// (MLX's, for one), keep a block of the result in each thread's registers, so that every value
// loaded feeds several multiply-adds, and use `simdgroup_matrix`, Apple's 8 × 8 matrix
// operations across a SIMD group. The cell
// below times MPS's own product on growing matrices, shape-only (lesson 5: sizes and times,
// no values), and counts its floating-point operations per second.

// %% mps_at_scale requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("MPS's product approaches the GPU's peak as the matrices grow") {
  const sim::ShapeOnlyGuard shape_only;
  const torch::Device mps("mps");
  for (const std::int64_t n : {256, 1024, 4096}) {
    const auto a = torch::randn({n, n}, mps), b = torch::randn({n, n}, mps);
    const double us = gpu_us([&] { a.matmul(b); });
    const double flops = 2.0 * static_cast<double>(n * n * n);
    print(fmt::format("n = {:4}: {:9.1f} µs, {:5.2f} TFLOPS", n, us, flops / us / 1e6));
  }
}
// %% [output]
// n =  256:      32.4 µs,  1.04 TFLOPS
// n = 1024:     251.4 µs,  8.54 TFLOPS
// n = 4096:   12291.6 µs, 11.18 TFLOPS
// %% [output] machine="m1-8gb"
// n =  256:      54.6 µs,  0.61 TFLOPS
// n = 1024:    1157.0 µs,  1.86 TFLOPS
// n = 4096:   66887.5 µs,  2.05 TFLOPS
// %% [python]
// for n in (256, 1024, 4096):
//     a, b = torch.randn(n, n, device="mps"), torch.randn(n, n, device="mps")
//     us = gpu_us(lambda: a @ b)
//     print(f"n = {n:4}: {us:9.1f} µs, {2 * n**3 / us / 1e6:5.2f} TFLOPS")

// %% [markdown] facts="78 %, 14.3 TFLOPS, 1.8 TFLOPS"
// On the M3 Max, MPS's product reaches {{mps_at_scale@m3-max-64gb:n = 4096:...µs,}} TFLOPS on
// 4096 × 4096 matrices, about 78 % of the GPU's float32 peak of 14.3 TFLOPS; on the M1 (its
// outputs are under the M3 Max's), {{mps_at_scale@m1-8gb:n = 4096:...µs,}} of 2.6. The tiled kernel, held to an eighth of the peak (1.8 TFLOPS on the M3 Max), would take
// at least six times as long as MPS on the largest product. A matrix product is compute-bound,
// and for compute-bound work a library written by the GPU's maker for its own GPUs is very hard
// to beat; the same goes for convolutions and attention (`F.scaled_dot_product_attention`).
// Your kernels pay off elsewhere.
//
// ## When a kernel of your own is worth it
//
// Ask these before writing one, in this order:
//
// 1. **Does PyTorch already do it in one kernel?** `F.gelu(x, approximate="tanh")`,
//    `F.scaled_dot_product_attention`, `torch.addcmul`, Adam's `fused=True`: a chain you see
//    in your own code may have a single operation behind it. `torch.compile` (lesson 8) fuses
//    elementwise chains into Metal kernels it writes itself.
// 2. **Is the work memory-bound?** A chain of elementwise operations, a norm, a softmax, an
//    update rule: one pass over memory instead of several is where the tenfold gains of section
//    10.2 come from. Matrix products and convolutions are compute-bound: leave them to MPS.
// 3. **Are the tensors small?** Then fixed costs dominate, and a kernel queued in a
//    microsecond beats an MPSGraph operation that takes sixteen to encode. Fewer, larger
//    operations help more than any kernel, though.
// 4. **Can you afford what it costs to keep?** A `compile_shader` kernel has no backward pass:
//    for training, you write the gradient's kernel too and join both in a
//    `torch.autograd.Function`. It runs only on `mps`, so keep the PyTorch version beside it,
//    for the cpu and for a test that compares the two with `torch.allclose` (lesson 7) on
//    shapes that exercise every guard, including sizes that are not multiples of the group.
//    Compile the library once, when your program starts, and keep it: `compile_shader` runs
//    Metal's compiler every time it is called.
//
// On a real Mac, write kernels with the emulator's strictness in mind: by default Metal checks
// nothing while a kernel runs, and an out-of-bounds write or a race shows up, if ever, as a
// wrong number somewhere else. Metal's shader validation, turned on with
// `MTL_SHADER_VALIDATION=1` in the environment before the process starts (Apple's "Validating
// your app's Metal shader usage"), reports out-of-bounds accesses, at a cost in speed.
