// Puzzle 8 · Prefix sum. out[i] = a[0] + a[1] + ... + a[i], for n = 256, by one threadgroup of
// 256 threads. The tests call lib.prefix_sum(out, a, threads=256, group_size=256). Budget: each
// thread reads one element from device memory.
#include <metal_stdlib>
using namespace metal;

constant uint kSimdGroups = 8;

kernel void prefix_sum(device float* out,
                       device const float* a,
                       uint i [[thread_position_in_grid]],
                       uint lane [[thread_index_in_simdgroup]],
                       uint simd_group [[simdgroup_index_in_threadgroup]]) {
    TODO("9.8", "simd_prefix_inclusive_sum in each SIMD group, then add the totals of the groups before");
}
