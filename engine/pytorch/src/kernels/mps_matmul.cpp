// Matrix products in the emulated MPS order: Note [Summation order on mps] (mps_kernels.h).

#include <Eigen/Core>
#include <algorithm>

#include "kernels/mps_kernels.h"

namespace engine::kernels::mps {
namespace {

constexpr std::int64_t kTile = 8;  // the depth of an 8 x 8 simdgroup_matrix tile

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMajorArray = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
            std::int64_t n) {
  // Row q of `block` is the q-th product of the current block, for every column of the result.
  RowMajorArray block(kTile, n);
  for (std::int64_t i = 0; i < m; ++i) {
    Eigen::Map<Eigen::ArrayXf> total(c + i * n, n);
    total.setZero();
    for (std::int64_t start = 0; start < k; start += kTile) {
      const std::int64_t depth = std::min(kTile, k - start);
      block.setZero();
      for (std::int64_t q = 0; q < depth; ++q) {
        block.row(q) = Eigen::Map<const Eigen::ArrayXf>(b + (start + q) * n, n).transpose() *
                       a[i * k + start + q];
      }
      for (std::int64_t width = kTile / 2; width >= 1; width /= 2) {
        for (std::int64_t q = 0; q < width; ++q) block.row(q) += block.row(q + width);
      }
      total += block.row(0).transpose();
    }
  }
}

void matmul_transposed_a(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
                         std::int64_t n) {
  const RowMajor a_t = Eigen::Map<const RowMajor>(a, k, m).transpose();
  matmul(a_t.data(), b, c, m, k, n);
}

void linear(const float* x, const float* w, const float* bias, float* y, std::int64_t rows,
            std::int64_t in, std::int64_t out) {
  const RowMajor w_t = Eigen::Map<const RowMajor>(w, out, in).transpose();
  matmul(x, w_t.data(), y, rows, in, out);
  if (bias == nullptr) return;
  Eigen::Map<RowMajor>(y, rows, out).rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias, out);
}

}  // namespace engine::kernels::mps
