#pragma once
// Internal: the kernels whose results depend on the order in which they add, in the order the
// device that runs them adds. Values of mps tensors go through the mps versions; cpu tensors
// keep the cpu kernels of kernels.h, bit for bit.
//
// Note [Summation order on mps]
// Floating-point addition is not associative, so two correct kernels that add the same numbers
// in different orders round differently, in the last bits. PyTorch's cpu kernels and MPS's GPU
// kernels do add in different orders: the cpu sums long rows in vectorised blocks, while a GPU
// splits the work over the threads of a SIMD-group and combines their partial sums in a tree,
// and multiplies matrices in small tiles. MPSGraph's kernels are closed source, so the exact
// order a Mac uses is not public; the emulator uses one representative GPU order, in float32
// throughout (Metal has no float64, so a GPU cannot add in double and round once, as the
// emulator's cpu sums do):
//   - a reduction: 32 lanes, lane l adding elements l, l + 32, l + 64, ... in turn; then the
//     lanes' partial sums combined pairwise in a tree (lane l += lane l + 16, then + 8, + 4,
//     + 2, + 1), the way simd_sum combines a SIMD-group's values;
//   - a matrix product: each result element adds its k products in blocks of 8 (Apple GPUs
//     multiply 8 x 8 simdgroup_matrix tiles), the 8 products of a block summed pairwise, each
//     block's sum then added to the running total.
// The differences from the cpu are therefore realistic in size (a few units in the last place,
// growing with the length of the sum) but not the digits a real Mac prints. Softmax, log-softmax
// and layer norm still sum in the cpu's order on mps too: a simplification no lesson relies on.

#include <cstdint>

#include "engine/device.h"

namespace engine::kernels {

namespace mps {
// The same contracts as the cpu kernels of the same names in kernels.h.
void sum_over_axis(const float* in, float* out, std::int64_t outer, std::int64_t reduce,
                   std::int64_t inner, double scale = 1.0);
void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
            std::int64_t n);
void matmul_transposed_a(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
                         std::int64_t n);
void linear(const float* x, const float* w, const float* bias, float* y, std::int64_t rows,
            std::int64_t in, std::int64_t out);
}  // namespace mps

// The order-dependent kernels of one device: Note [Summation order on mps].
struct Summation {
  void (*sum_over_axis)(const float*, float*, std::int64_t, std::int64_t, std::int64_t, double);
  void (*matmul)(const float*, const float*, float*, std::int64_t, std::int64_t, std::int64_t);
  void (*matmul_transposed_a)(const float*, const float*, float*, std::int64_t, std::int64_t,
                              std::int64_t);
  void (*linear)(const float*, const float*, const float*, float*, std::int64_t, std::int64_t,
                 std::int64_t);
};
const Summation& summation_on(const Device& device);

}  // namespace engine::kernels
