#include <metal_stdlib>
using namespace metal;
#define GROUP 2
kernel void reduce(const device float* in [[buffer(0)]], device atomic_float* out [[buffer(1)]],
                   uint i [[thread_position_in_grid]], uint t [[thread_position_in_threadgroup]],
                   uint lane [[thread_index_in_simdgroup]]) {
  threadgroup float partial[GROUP];
  partial[t] = in[i];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint stride = GROUP / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  float v = simd_sum(in[i]) + simd_shuffle_down(in[i], 1u);
  if (t == 0) atomic_fetch_add_explicit(out, partial[0] + v * 0.0f, memory_order_relaxed);
}
