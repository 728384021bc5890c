#include <Eigen/Core>

#include "kernels/kernels.h"

namespace engine::kernels {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrix = Eigen::Map<const RowMajor>;
using Matrix = Eigen::Map<RowMajor>;

}  // namespace

void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
            std::int64_t n) {
  Matrix(c, m, n).noalias() = ConstMatrix(a, m, k) * ConstMatrix(b, k, n);
}

void matmul_transposed_a(const float* a, const float* b, float* c, std::int64_t m,
                         std::int64_t k, std::int64_t n) {
  Matrix(c, m, n).noalias() = ConstMatrix(a, k, m).transpose() * ConstMatrix(b, k, n);
}

void linear(const float* x, const float* w, const float* bias, float* y, std::int64_t rows,
            std::int64_t in, std::int64_t out) {
  Matrix result(y, rows, out);
  result.noalias() = ConstMatrix(x, rows, in) * ConstMatrix(w, out, in).transpose();
  if (bias != nullptr) {
    result.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias, out);
  }
}

void transpose_last_two(const float* in, float* out, std::int64_t batches, std::int64_t rows,
                        std::int64_t cols) {
  for (std::int64_t b = 0; b < batches; ++b) {
    Matrix(out + b * rows * cols, cols, rows) = ConstMatrix(in + b * rows * cols, rows, cols).transpose();
  }
}

}  // namespace engine::kernels
