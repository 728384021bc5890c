// Puzzle 7 · Dot product. out[0] = a[0] * b[0] + ... + a[n - 1] * b[n - 1], for n = 256, by
// one threadgroup of 256 threads: eight SIMD groups of 32. The tests call
// lib.dot_product(out, a, b, threads=256, group_size=256). Budget: each thread reads one
// element of a and one of b, and the threadgroup holds one partial sum per SIMD group.
#include <metal_stdlib>
using namespace metal;

constant uint kSimdGroups = 8;

kernel void dot_product(device float* out,
                        device const float* a,
                        device const float* b,
                        uint i [[thread_position_in_grid]],
                        uint lane [[thread_index_in_simdgroup]],
                        uint simd_group [[simdgroup_index_in_threadgroup]]) {
    TODO("9.7", "simd_sum each SIMD group's products, meet in threadgroup memory, sum the groups");
}
