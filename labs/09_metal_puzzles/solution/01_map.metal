// Puzzle 1 · Map. Each thread adds 10 to one element: out[i] = a[i] + 10.
// The tests call lib.map(out, a): one thread per element of out, the first tensor.
#include <metal_stdlib>
using namespace metal;

kernel void map(device float* out,
                device const float* a,
                uint i [[thread_position_in_grid]]) {
    out[i] = a[i] + 10;
}
