// Puzzle 9 · A tiled matrix product. out = a @ b for square matrices of n x n floats (n a
// multiple of 16), one thread per element of out, in threadgroups of 16 x 16. The tests call
// lib.tiled_matmul(out, a, b, n, threads=(n, n), group_size=(16, 16)). Budget: each thread
// reads 2 n / 16 values from device memory (a naive product reads 2 n), through two tiles of
// threadgroup memory, and the product takes less time than the naive one on the M3 Max.
#include <metal_stdlib>
using namespace metal;

constant uint kTile = 16;

kernel void tiled_matmul(device float* out,
                         device const float* a,
                         device const float* b,
                         constant uint& n,
                         uint2 position [[thread_position_in_grid]],
                         uint2 local [[thread_position_in_threadgroup]]) {
    TODO("9.9", "for each tile along k: load a tile of a and of b, wait, multiply, wait");
}
