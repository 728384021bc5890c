// The matrix products, on the system's BLAS (OpenBLAS on Debian, Accelerate on macOS): its
// sgemm is tuned for each CPU (AVX-512 kernels where there are some), which a compiled Eigen
// product cannot be without compiling for one machine.

#include <Eigen/Core>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>

#ifdef __APPLE__
#define ACCELERATE_NEW_LAPACK 1
#include <Accelerate/Accelerate.h>
#else
#include <cblas.h>
#endif

#include "kernels/kernels.h"

#ifndef __APPLE__
// OpenBLAS only: weak, so that another BLAS (which has no such function) links as well.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));
#endif

namespace engine::kernels {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrix = Eigen::Map<const RowMajor>;
using Matrix = Eigen::Map<RowMajor>;

#ifndef __APPLE__
// One thread unless OPENBLAS_NUM_THREADS asks for more, so that results and timings are the
// same on every run whatever else the machine is doing. OpenBLAS's pthread build (Debian's
// default) would otherwise split a product across every core. (On macOS, Accelerate's threads
// follow VECLIB_MAXIMUM_THREADS.)
[[maybe_unused]] const bool kSingleThreaded = [] {
  if (openblas_set_num_threads != nullptr && std::getenv("OPENBLAS_NUM_THREADS") == nullptr) {
    openblas_set_num_threads(1);
  }
  return true;
}();
#endif

// BLAS counts in int; a leading dimension is at least 1, even for an empty matrix.
int blas_int(std::int64_t n) {
  if (n < 0 || n > INT_MAX) throw std::length_error("matrix dimension " + std::to_string(n) + " is too large for BLAS");
  return static_cast<int>(n);
}
int leading(std::int64_t n) { return std::max(1, blas_int(n)); }

}  // namespace

void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
            std::int64_t n) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, blas_int(m), blas_int(n), blas_int(k), 1.0f, a,
              leading(k), b, leading(n), 0.0f, c, leading(n));
}

void matmul_transposed_a(const float* a, const float* b, float* c, std::int64_t m,
                         std::int64_t k, std::int64_t n) {
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, blas_int(m), blas_int(n), blas_int(k), 1.0f, a,
              leading(m), b, leading(n), 0.0f, c, leading(n));
}

void linear(const float* x, const float* w, const float* bias, float* y, std::int64_t rows,
            std::int64_t in, std::int64_t out) {
  if (bias != nullptr) {
    for (std::int64_t r = 0; r < rows; ++r) std::copy(bias, bias + out, y + r * out);
  }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, blas_int(rows), blas_int(out), blas_int(in), 1.0f, x,
              leading(in), w, leading(in), bias != nullptr ? 1.0f : 0.0f, y, leading(out));
}

void transpose_last_two(const float* in, float* out, std::int64_t batches, std::int64_t rows,
                        std::int64_t cols) {
  for (std::int64_t b = 0; b < batches; ++b) {
    Matrix(out + b * rows * cols, cols, rows) = ConstMatrix(in + b * rows * cols, rows, cols).transpose();
  }
}

}  // namespace engine::kernels
