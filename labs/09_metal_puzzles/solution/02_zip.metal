// Puzzle 2 · Zip. Each thread adds one element of a to the same element of b:
// out[i] = a[i] + b[i]. The tests call lib.zip(out, a, b), one thread per element.
#include <metal_stdlib>
using namespace metal;

kernel void zip(device float* out,
                device const float* a,
                device const float* b,
                uint i [[thread_position_in_grid]]) {
    out[i] = a[i] + b[i];
}
