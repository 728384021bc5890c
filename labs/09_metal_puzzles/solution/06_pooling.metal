// Puzzle 6 · Pooling. out[i] is the sum of the last three elements up to i:
// a[i - 2] + a[i - 1] + a[i], fewer at the start. The tests call
// lib.pooling(out, a, threads=8, group_size=8): one threadgroup of 8 threads for 8 elements.
// Budget: each thread reads one element from device memory, into threadgroup memory, and takes
// its neighbours' from there.
#include <metal_stdlib>
using namespace metal;

constant uint kThreads = 8;

kernel void pooling(device float* out,
                    device const float* a,
                    uint i [[thread_position_in_grid]]) {
    threadgroup float shared[kThreads];
    shared[i] = a[i];  // the only read of device memory
    threadgroup_barrier(mem_flags::mem_threadgroup);  // every element is in before any is read
    float sum = shared[i];
    if (i >= 1) sum += shared[i - 1];
    if (i >= 2) sum += shared[i - 2];
    out[i] = sum;
}
