// The matrix products. Large ones run on the system's BLAS (Debian's serial OpenBLAS, or
// Accelerate on macOS), whose sgemm is tuned for each CPU (AVX-512 kernels where there are
// some), which a compiled Eigen product cannot be without compiling for one machine. Small ones,
// which are most of what the lessons compute, run on Eigen.
//
// The BLAS is loaded (dlopen) when the first large product needs it, not linked: loading
// OpenBLAS costs a process milliseconds at start (its thousands of relocations), and the course
// runs hundreds of short programs, the lessons' cells and the tests, most of which never need it.

#include <dlfcn.h>

#include <Eigen/Core>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <string>

#ifdef __APPLE__
#define ACCELERATE_NEW_LAPACK 1
#include <Accelerate/Accelerate.h>
#else
#include <cblas.h>
#endif

#include "engine/errors.h"
#include "kernels/kernels.h"

namespace engine::kernels {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrix = Eigen::Map<const RowMajor>;
using Matrix = Eigen::Map<RowMajor>;

// Below this many multiply-adds, Eigen: a product of 64x64 matrices takes microseconds either way.
constexpr std::int64_t kBlasFrom = 64 * 64 * 64;

using Sgemm = decltype(&cblas_sgemm);

// The BLAS library CMake found (find_package(BLAS)); its sgemm, loaded on first use.
Sgemm sgemm() {
  static const Sgemm loaded = [] {
    const std::string library = TUTOR_BLAS_LIBRARY;
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) throw Error("cannot load the BLAS library " + library + ": " + dlerror());
    // One thread unless OPENBLAS_NUM_THREADS asks for more: the serial build has no others, and a
    // pthread build would otherwise split products over every core, and runs would differ.
    using SetThreads = void (*)(int);
    if (auto set_threads = reinterpret_cast<SetThreads>(dlsym(handle, "openblas_set_num_threads"));
        set_threads != nullptr && std::getenv("OPENBLAS_NUM_THREADS") == nullptr) {
      set_threads(1);
    }
    auto function = reinterpret_cast<Sgemm>(dlsym(handle, "cblas_sgemm"));
    if (function == nullptr) throw Error("the BLAS library " + library + " has no cblas_sgemm");
    return function;
  }();
  return loaded;
}

bool large(std::int64_t m, std::int64_t k, std::int64_t n) { return m * k * n >= kBlasFrom; }

// BLAS counts in int; a leading dimension is at least 1, even for an empty matrix.
int blas_int(std::int64_t n) {
  if (n < 0 || n > INT_MAX) throw Error("matrix dimension " + std::to_string(n) + " is too large for BLAS");
  return static_cast<int>(n);
}
int leading(std::int64_t n) { return std::max(1, blas_int(n)); }

}  // namespace

void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
            std::int64_t n) {
  if (!large(m, k, n)) {
    Matrix(c, m, n).noalias() = ConstMatrix(a, m, k) * ConstMatrix(b, k, n);
    return;
  }
  sgemm()(CblasRowMajor, CblasNoTrans, CblasNoTrans, blas_int(m), blas_int(n), blas_int(k), 1.0f, a, leading(k), b,
          leading(n), 0.0f, c, leading(n));
}

void matmul_transposed_a(const float* a, const float* b, float* c, std::int64_t m,
                         std::int64_t k, std::int64_t n) {
  if (!large(m, k, n)) {
    Matrix(c, m, n).noalias() = ConstMatrix(a, k, m).transpose() * ConstMatrix(b, k, n);
    return;
  }
  sgemm()(CblasRowMajor, CblasTrans, CblasNoTrans, blas_int(m), blas_int(n), blas_int(k), 1.0f, a, leading(m), b,
          leading(n), 0.0f, c, leading(n));
}

void linear(const float* x, const float* w, const float* bias, float* y, std::int64_t rows,
            std::int64_t in, std::int64_t out) {
  Matrix result(y, rows, out);
  if (!large(rows, in, out)) {
    result.noalias() = ConstMatrix(x, rows, in) * ConstMatrix(w, out, in).transpose();
    if (bias != nullptr) result.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias, out);
    return;
  }
  if (bias != nullptr) result.rowwise() = Eigen::Map<const Eigen::RowVectorXf>(bias, out);
  sgemm()(CblasRowMajor, CblasNoTrans, CblasTrans, blas_int(rows), blas_int(out), blas_int(in), 1.0f, x, leading(in), w,
          leading(in), bias != nullptr ? 1.0f : 0.0f, y, leading(out));
}

void transpose_last_two(const float* in, float* out, std::int64_t batches, std::int64_t rows,
                        std::int64_t cols) {
  for (std::int64_t b = 0; b < batches; ++b) {
    Matrix(out + b * rows * cols, cols, rows) = ConstMatrix(in + b * rows * cols, rows, cols).transpose();
  }
}

}  // namespace engine::kernels
