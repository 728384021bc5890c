// Puzzle 3 · Guard. As puzzle 1, out[i] = a[i] + 10, but the grid is rounded up to whole
// threadgroups of 32: the tests call lib.guard(out, a, n) with n elements and more threads than
// that. A thread past the last element must leave memory alone.
#include <metal_stdlib>
using namespace metal;

kernel void guard(device float* out,
                  device const float* a,
                  constant uint& n,
                  uint i [[thread_position_in_grid]]) {
    TODO("9.3", "return if thread i has no element, else write out[i] = a[i] + 10");
}
