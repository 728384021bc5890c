// Puzzle 4 · Map in two dimensions. out and a are matrices of `rows` x `cols` floats, stored row
// after row; each thread of a two-dimensional grid adds 10 to one element:
// out[row][col] = a[row][col] + 10. The tests call lib.map_2d(out, a, rows, cols) with a grid
// larger than the matrix in both dimensions.
#include <metal_stdlib>
using namespace metal;

kernel void map_2d(device float* out,
                   device const float* a,
                   constant uint& rows,
                   constant uint& cols,
                   uint2 position [[thread_position_in_grid]]) {
    TODO("9.4", "find this thread's row and column; if both are inside the matrix, write its element");
}
