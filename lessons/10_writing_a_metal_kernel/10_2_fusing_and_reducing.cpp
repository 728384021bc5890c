// %% [markdown]
// # 10.2 · Fusing and reducing
//
// The two kinds of kernel worth writing yourself most often: one that does in a single pass
// over memory what a chain of PyTorch operations does in many, and one whose threads cooperate
// on a reduction through threadgroup memory and SIMD-group functions.

// %%
#include "shared.h"  // gpu_us() and error_text()

// %% [markdown] facts="400 GB/s, 14.3 TFLOPS"
// ## One pass instead of nine
//
// An elementwise operation on the GPU is limited by memory, not arithmetic: each element costs
// a few floating-point operations and eight bytes of traffic (four read, four written), and in
// the time an M3 Max's memory (400 GB/s) moves those eight bytes its GPU (14.3 TFLOPS) could do
// nearly 300 floating-point operations. A chain of elementwise operations pays that traffic
// once per link, because each operation reads its input from memory and writes its whole result
// back before the next one starts.
//
// Take the activation of a transformer's feed-forward block, a bias added and then GELU in its
// tanh form, `0.5 h (1 + tanh(0.79788 (h + 0.044715 h³)))`. Written out in PyTorch operations it
// is nine kernels, each a full pass over the tensor. Written as one Metal kernel it is one pass:
// each thread reads its element and its bias, keeps every intermediate value in registers, and
// writes one result.

// %% fused_bias_gelu requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("one fused kernel against the chain of nine operations it replaces") {
  const auto lib = py::torch::mps::compile_shader(R"(
#include <metal_stdlib>
using namespace metal;

// y = gelu(x + bias) with GELU's tanh approximation: one read of x, one write of y.
kernel void bias_gelu(const device float* x, const device float* bias, device float* y,
                      constant uint& width, uint i [[thread_position_in_grid]]) {
    const float h = x[i] + bias[i % width];
    const float inner = 0.7978845608f * (h + 0.044715f * h * h * h);
    y[i] = 0.5f * h * (1.0f + tanh(inner));
}
)");
  const torch::Device mps("mps");
  const auto x = torch::randn({4096, 256}, mps);
  const auto bias = torch::randn({256}, mps);
  const auto fused = torch::zeros({4096, 256}, mps);
  torch::Tensor chain;
  const double chain_us = gpu_us([&] {
    const auto h = x + bias;
    chain = 0.5 * h * (1 + torch::tanh(0.7978845608 * (h + 0.044715 * torch::pow(h, 3))));
  });
  const double fused_us = gpu_us([&] { lib.attr("bias_gelu")(x, bias, fused, 256); });
  print(fmt::format("chain of nine operations: {:6.1f} µs", chain_us));
  print(fmt::format("one fused kernel:         {:6.1f} µs", fused_us));
  print("same values:", torch::allclose(fused, chain, 1e-5, 1e-6));
}
// %% [output]
// chain of nine operations:  326.6 µs
// one fused kernel:           34.6 µs
// same values: True
// %% [output] machine="m1-8gb"
// chain of nine operations: 1520.6 µs
// one fused kernel:          154.4 µs
// same values: True
// %% [python]
// lib = torch.mps.compile_shader("""
// #include <metal_stdlib>
// using namespace metal;
//
// // y = gelu(x + bias) with GELU's tanh approximation: one read of x, one write of y.
// kernel void bias_gelu(const device float* x, const device float* bias, device float* y,
//                       constant uint& width, uint i [[thread_position_in_grid]]) {
//     const float h = x[i] + bias[i % width];
//     const float inner = 0.7978845608f * (h + 0.044715f * h * h * h);
//     y[i] = 0.5f * h * (1.0f + tanh(inner));
// }
// """)
// x = torch.randn(4096, 256, device="mps")
// bias = torch.randn(256, device="mps")
// fused = torch.zeros(4096, 256, device="mps")
//
// def run_chain():
//     global chain
//     h = x + bias
//     chain = 0.5 * h * (1 + torch.tanh(0.7978845608 * (h + 0.044715 * torch.pow(h, 3))))
//
// chain_us = gpu_us(run_chain)
// fused_us = gpu_us(lambda: lib.bias_gelu(x, bias, fused, 256))
// print(f"chain of nine operations: {chain_us:6.1f} µs")
// print(f"one fused kernel:         {fused_us:6.1f} µs")
// print("same values:", torch.allclose(fused, chain, 1e-5, 1e-6))

// %% [markdown]
// Nine to ten times faster on both Macs, about the ratio of their memory traffic: the chain's
// nine operations read and write about 80 bytes per element between them, the fused kernel 8.
// The fused kernel also allocates nothing, where the chain leaves eight intermediate tensors for
// the allocator. The results agree to within float rounding (the two compute the same formula
// in a different order).
//
// PyTorch happens to have this one: `F.gelu(h, approximate="tanh")` is a single kernel of its
// own, so `x + bias` followed by it is two passes, not nine. Check what PyTorch already fuses
// before writing a kernel; the case for your own is an activation, a norm or an update rule
// that PyTorch runs as a chain.
//
// ## Threads that cooperate: a row-wise softmax
//
// Softmax along a row, `exp(x - max) / sum(exp(x - max))`, needs two reductions per row before
// any element can be written: the row's maximum (subtracted so that no `exp` overflows) and the
// sum of the exponentials. One thread per element cannot compute either alone. The plan is a
// threadgroup per row, in three steps per reduction:
//
// 1. each of the group's 256 threads reduces its share of the row (every 256th element, so that
//    the 32 threads of a SIMD group read 32 neighbouring floats, one 128-byte line);
// 2. `simd_max` and `simd_sum` combine the 32 values of a SIMD group in registers, without
//    memory;
// 3. the first thread of each of the 8 SIMD groups writes its result to `threadgroup` memory,
//    a small array the whole group shares, and after a barrier every SIMD group combines those
//    8 values.
//
// `threadgroup_barrier(mem_flags::mem_threadgroup)` makes every thread of the group wait until
// all have arrived, and makes the threadgroup memory written before it visible to all after it.

// %% row_softmax requires="mps" compare="m3-max-64gb,m1-8gb"
TUTOR_CELL("a threadgroup per row: simd_max, simd_sum and threadgroup memory") {
  const auto lib = py::torch::mps::compile_shader(R"(
#include <metal_stdlib>
using namespace metal;

kernel void softmax_rows(const device float* x, device float* y, constant uint& width,
                         uint row [[threadgroup_position_in_grid]],
                         uint t [[thread_position_in_threadgroup]],
                         uint threads [[threads_per_threadgroup]],
                         uint lane [[thread_index_in_simdgroup]],
                         uint simd_group [[simdgroup_index_in_threadgroup]]) {
    threadgroup float partial[32];  // one value per SIMD group
    const uint simd_groups = threads / 32;
    const device float* in = x + row * width;
    device float* out = y + row * width;

    float m = -INFINITY;
    for (uint i = t; i < width; i += threads) m = max(m, in[i]);
    m = simd_max(m);
    if (lane == 0) partial[simd_group] = m;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    m = simd_max(lane < simd_groups ? partial[lane] : -INFINITY);
    threadgroup_barrier(mem_flags::mem_threadgroup);  // all have read partial: reuse it

    float s = 0.0f;
    for (uint i = t; i < width; i += threads) s += exp(in[i] - m);
    s = simd_sum(s);
    if (lane == 0) partial[simd_group] = s;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    s = simd_sum(lane < simd_groups ? partial[lane] : 0.0f);

    for (uint i = t; i < width; i += threads) out[i] = exp(in[i] - m) / s;
}
)");
  const torch::Device mps("mps");
  const std::int64_t rows = 1024, width = 1024;
  const auto x = torch::randn({rows, width}, mps);
  const auto y = torch::zeros({rows, width}, mps);
  torch::Tensor reference;
  const double kernel_us = gpu_us([&] {
    lib.attr("softmax_rows")(x, y, width, py::arg("threads") = rows * 256,
                             py::arg("group_size") = 256);
  });
  const double mps_us = gpu_us([&] { reference = torch::softmax(x, 1); });
  print(fmt::format("softmax_rows kernel:    {:6.1f} µs", kernel_us));
  print(fmt::format("torch.softmax (MPS's):  {:6.1f} µs", mps_us));
  print("same values:", torch::allclose(y, reference, 1e-5, 1e-7));
}
// %% [output]
// softmax_rows kernel:      34.8 µs
// torch.softmax (MPS's):    88.7 µs
// same values: True
// %% [output] machine="m1-8gb"
// softmax_rows kernel:     155.6 µs
// torch.softmax (MPS's):   365.7 µs
// same values: True
// %% [python]
// lib = torch.mps.compile_shader("""
// #include <metal_stdlib>
// using namespace metal;
//
// kernel void softmax_rows(const device float* x, device float* y, constant uint& width,
//                          uint row [[threadgroup_position_in_grid]],
//                          uint t [[thread_position_in_threadgroup]],
//                          uint threads [[threads_per_threadgroup]],
//                          uint lane [[thread_index_in_simdgroup]],
//                          uint simd_group [[simdgroup_index_in_threadgroup]]) {
//     threadgroup float partial[32];  // one value per SIMD group
//     const uint simd_groups = threads / 32;
//     const device float* in = x + row * width;
//     device float* out = y + row * width;
//
//     float m = -INFINITY;
//     for (uint i = t; i < width; i += threads) m = max(m, in[i]);
//     m = simd_max(m);
//     if (lane == 0) partial[simd_group] = m;
//     threadgroup_barrier(mem_flags::mem_threadgroup);
//     m = simd_max(lane < simd_groups ? partial[lane] : -INFINITY);
//     threadgroup_barrier(mem_flags::mem_threadgroup);  // all have read partial: reuse it
//
//     float s = 0.0f;
//     for (uint i = t; i < width; i += threads) s += exp(in[i] - m);
//     s = simd_sum(s);
//     if (lane == 0) partial[simd_group] = s;
//     threadgroup_barrier(mem_flags::mem_threadgroup);
//     s = simd_sum(lane < simd_groups ? partial[lane] : 0.0f);
//
//     for (uint i = t; i < width; i += threads) out[i] = exp(in[i] - m) / s;
// }
// """)
// rows, width = 1024, 1024
// x = torch.randn(rows, width, device="mps")
// y = torch.zeros(rows, width, device="mps")
// kernel_us = gpu_us(lambda: lib.softmax_rows(x, y, width, threads=rows * 256, group_size=256))
// mps_us = gpu_us(lambda: torch.softmax(x, 1))
// reference = torch.softmax(x, 1)
// print(f"softmax_rows kernel:    {kernel_us:6.1f} µs")
// print(f"torch.softmax (MPS's):  {mps_us:6.1f} µs")
// print("same values:", torch.allclose(y, reference, 1e-5, 1e-7))

// %% [markdown] facts="4 KiB"
// The kernel beats MPS's own softmax on both simulated Macs. It reads each row from memory once
// (its second and third passes find the row's 4 KiB in the GPU's cache) and writes it once,
// with the reductions in registers and 128 bytes of threadgroup memory. PyTorch runs softmax as
// an MPSGraph, which on the published timings the emulator's cost model was fitted to streams
// at less than half the rate of a plain elementwise kernel. That is a measured property of one
// PyTorch release on a few Macs, not a law: time both on your own Mac before you switch.
//
// ## One barrier too few
//
// The second barrier in `softmax_rows` looks removable: nothing is written to `partial` between
// it and the first. But the first thread of each SIMD group writes its sum into `partial` a few
// lines later, and nothing stops a fast SIMD group from doing that while a slow one is still
// reading the maxima. On a Mac the result would depend on timing: right most of the time, wrong
// now and then, on some rows, on some machines. The emulator checks every pair of accesses to
// threadgroup memory between two barriers and stops at the first write by one thread to a place
// another thread read or wrote.

// %% a_missing_barrier requires="mps"
TUTOR_CELL("without the second barrier, SIMD groups race on threadgroup memory") {
  const auto lib = py::torch::mps::compile_shader(R"(
#include <metal_stdlib>
using namespace metal;

kernel void softmax_rows(const device float* x, device float* y, constant uint& width,
                         uint row [[threadgroup_position_in_grid]],
                         uint t [[thread_position_in_threadgroup]],
                         uint threads [[threads_per_threadgroup]],
                         uint lane [[thread_index_in_simdgroup]],
                         uint simd_group [[simdgroup_index_in_threadgroup]]) {
    threadgroup float partial[32];
    const uint simd_groups = threads / 32;
    const device float* in = x + row * width;
    device float* out = y + row * width;

    float m = -INFINITY;
    for (uint i = t; i < width; i += threads) m = max(m, in[i]);
    m = simd_max(m);
    if (lane == 0) partial[simd_group] = m;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    m = simd_max(lane < simd_groups ? partial[lane] : -INFINITY);

    float s = 0.0f;
    for (uint i = t; i < width; i += threads) s += exp(in[i] - m);
    s = simd_sum(s);
    if (lane == 0) partial[simd_group] = s;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    s = simd_sum(lane < simd_groups ? partial[lane] : 0.0f);

    for (uint i = t; i < width; i += threads) out[i] = exp(in[i] - m) / s;
}
)");
  const torch::Device mps("mps");
  const auto x = torch::randn({4, 1024}, mps);
  const auto y = torch::zeros({4, 1024}, mps);
  try {
    lib.attr("softmax_rows")(x, y, 1024, py::arg("threads") = 4 * 256,
                             py::arg("group_size") = 256);
    torch::mps::synchronize();
  } catch (const torch::Error& error) {
    print(error_text(error));
  }
}
// %% [output]
// RuntimeError: program_source:26:20: error: thread 0 of the grid (thread 0 of threadgroup 0): data race on threadgroup memory: partial[0] (threadgroup float [32]) is written here after other threads read it at line 21, with no threadgroup_barrier(mem_flags::mem_threadgroup) between them
//     if (lane == 0) partial[simd_group] = s;
//                    ^
// %% [python]
// lib = torch.mps.compile_shader("""
// #include <metal_stdlib>
// using namespace metal;
//
// kernel void softmax_rows(const device float* x, device float* y, constant uint& width,
//                          uint row [[threadgroup_position_in_grid]],
//                          uint t [[thread_position_in_threadgroup]],
//                          uint threads [[threads_per_threadgroup]],
//                          uint lane [[thread_index_in_simdgroup]],
//                          uint simd_group [[simdgroup_index_in_threadgroup]]) {
//     threadgroup float partial[32];
//     const uint simd_groups = threads / 32;
//     const device float* in = x + row * width;
//     device float* out = y + row * width;
//
//     float m = -INFINITY;
//     for (uint i = t; i < width; i += threads) m = max(m, in[i]);
//     m = simd_max(m);
//     if (lane == 0) partial[simd_group] = m;
//     threadgroup_barrier(mem_flags::mem_threadgroup);
//     m = simd_max(lane < simd_groups ? partial[lane] : -INFINITY);
//
//     float s = 0.0f;
//     for (uint i = t; i < width; i += threads) s += exp(in[i] - m);
//     s = simd_sum(s);
//     if (lane == 0) partial[simd_group] = s;
//     threadgroup_barrier(mem_flags::mem_threadgroup);
//     s = simd_sum(lane < simd_groups ? partial[lane] : 0.0f);
//
//     for (uint i = t; i < width; i += threads) out[i] = exp(in[i] - m) / s;
// }
// """)
// x = torch.randn(4, 1024, device="mps")
// y = torch.zeros(4, 1024, device="mps")
// try:
//     # on a Mac, the call runs and races: right most of the time
//     lib.softmax_rows(x, y, 1024, threads=4 * 256, group_size=256)
//     torch.mps.synchronize()
// except RuntimeError as error:
//     print(error_text(error))
