// Puzzle 5 · Broadcast. a is a row of `cols` floats and b a column of `rows`; out is the
// `rows` x `cols` matrix out[row][col] = a[col] + b[row], as a + b.unsqueeze(1) broadcasts.
// The tests call lib.broadcast(out, a, b, rows, cols) with a grid larger than out.
#include <metal_stdlib>
using namespace metal;

kernel void broadcast(device float* out,
                      device const float* a,
                      device const float* b,
                      constant uint& rows,
                      constant uint& cols,
                      uint2 position [[thread_position_in_grid]]) {
    TODO("9.5", "find the row and column; inside out, write a[col] + b[row] there");
}
