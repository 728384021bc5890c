// Matrix products of float64 and integer tensors: plain loops, since no lesson times them and no
// documented digit needs their speed. float64 adds in Note [Summation order on the cpu]'s order
// (blocks of kCpuProductDepth products, each summed from zero with fused multiply-adds, then
// added to the result); integer products wrap, as PyTorch's do, and need no order.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/kernels.h"

namespace engine::kernels {
namespace {

double multiply_add(double x, double y, double sum) { return std::fma(x, y, sum); }
std::int64_t multiply_add(std::int64_t x, std::int64_t y, std::int64_t sum) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y) +
                                   static_cast<std::uint64_t>(sum));
}
std::int64_t add(std::int64_t x, std::int64_t y) { return multiply_add(x, 1, y); }
double add(double x, double y) { return x + y; }

}  // namespace

template <typename T>
void matmul_generic(const T* a, const T* b, T* c, std::int64_t m, std::int64_t k, std::int64_t n) {
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      T total{};
      for (std::int64_t p0 = 0; p0 < k; p0 += kCpuProductDepth) {
        T block{};
        for (std::int64_t p = p0; p < std::min(k, p0 + kCpuProductDepth); ++p)
          block = multiply_add(a[i * k + p], b[p * n + j], block);
        total = add(total, block);
      }
      c[i * n + j] = total;
    }
  }
}

template void matmul_generic<double>(const double*, const double*, double*, std::int64_t,
                                     std::int64_t, std::int64_t);
template void matmul_generic<std::int64_t>(const std::int64_t*, const std::int64_t*, std::int64_t*,
                                           std::int64_t, std::int64_t, std::int64_t);

}  // namespace engine::kernels
