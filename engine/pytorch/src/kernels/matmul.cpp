// The cpu's matrix products, in an order of their own: Note [Summation order on the cpu]
// (kernels.h). The blocking is GotoBLAS's (a panel of B packed for the caches, a block of A
// packed per panel, a register tile of MR x NR results updated by a micro-kernel), so the loops
// that only choose which results are computed when (the cache blocks MC and NC, the tile) are
// free to change with the host without moving a bit; the order within each result is fixed by
// KC alone.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

#include "kernels/kernels.h"

namespace engine::kernels {
namespace {

constexpr std::int64_t kDepth = kCpuProductDepth;  // KC: fixes the order of every sum
// The register tile: 6 x 16 results are 12 AVX2 registers, or 24 NEON registers, with room
// for the loads.
constexpr std::int64_t kTileRows = 6;
constexpr std::int64_t kTileColumns = 16;

// An operand as a strided view, so that a transposed one is read, not copied: element (i, p)
// is data[i * row_stride + p * column_stride].
struct Operand {
  const float* data;
  std::int64_t row_stride;
  std::int64_t column_stride;
  float at(std::int64_t i, std::int64_t p) const {
    return data[i * row_stride + p * column_stride];
  }
};

// How many rows of A (MC) and columns of B (NC) a packed block holds: A's block should stay in
// the L2 cache, B's panel in the L3. Only speed depends on these (KC would follow the L1 in a
// BLAS; here it is fixed, because it fixes the order).
struct CacheBlocking {
  std::int64_t rows;
  std::int64_t columns;
};

CacheBlocking blocking_for(std::int64_t l2_bytes, std::int64_t l3_bytes) {
  const std::int64_t strip_bytes = kDepth * static_cast<std::int64_t>(sizeof(float));
  const auto round_down = [](std::int64_t value, std::int64_t unit) {
    return std::max(unit, value / unit * unit);
  };
  return {.rows = round_down(l2_bytes / 2 / strip_bytes, kTileRows),
          .columns = round_down(l3_bytes / 2 / strip_bytes, kTileColumns)};
}

// Cache sizes: typical ones (32 KiB L1, 1 MiB L2, 8 MiB L3), never the host's, unless a test sets
// MPS_COURSE_TEST_CACHE_KIB=L1,L2,L3 to prove that the blocking changes no result. The same sizes
// go to Eigen, at start-up, so that a product moved back onto Eigen's cache-tuned blocking would
// be caught by that test too.
CacheBlocking cache_blocking() {
  static const CacheBlocking blocking = [] {
    long long kib[3] = {32, 1024, 8 * 1024};
    const char* forced = std::getenv("MPS_COURSE_TEST_CACHE_KIB");
    if (forced != nullptr && *forced != '\0') {
      char extra = 0;
      if (std::sscanf(forced, "%lld,%lld,%lld%c", &kib[0], &kib[1], &kib[2], &extra) != 3 ||
          kib[0] <= 0 || kib[1] <= 0 || kib[2] <= 0) {
        // Read before main(), where an exception could only abort the program: say why, and stop.
        std::fprintf(stderr,
                     "MPS_COURSE_TEST_CACHE_KIB must be three sizes in KiB, L1,L2,L3 (for example "
                     "48,2048,32768), not '%s'\n",
                     forced);
        std::exit(2);
      }
    }
    Eigen::setCpuCacheSizes(kib[0] << 10, kib[1] << 10, kib[2] << 10);
    return blocking_for(kib[1] << 10, kib[2] << 10);
  }();
  return blocking;
}
[[maybe_unused]] const CacheBlocking g_blocking_at_start = cache_blocking();

// B's rows [p0, p0 + depth) and columns [j0, j0 + width) as strips of kTileColumns columns,
// each strip depth x kTileColumns row-major; columns past the edge are zero.
void pack_b(const Operand& b, std::int64_t p0, std::int64_t depth, std::int64_t j0,
            std::int64_t width, float* packed) {
  for (std::int64_t strip = 0; strip < width; strip += kTileColumns) {
    const std::int64_t columns = std::min(kTileColumns, width - strip);
    for (std::int64_t p = 0; p < depth; ++p) {
      float* row = packed + (strip * depth) + p * kTileColumns;
      for (std::int64_t j = 0; j < columns; ++j) row[j] = b.at(p0 + p, j0 + strip + j);
      std::fill(row + columns, row + kTileColumns, 0.0f);
    }
  }
}

// A's rows [i0, i0 + height) and columns [p0, p0 + depth) as strips of kTileRows rows, each
// depth x kTileRows (column by column); rows past the edge are zero.
void pack_a(const Operand& a, std::int64_t i0, std::int64_t height, std::int64_t p0,
            std::int64_t depth, float* packed) {
  for (std::int64_t strip = 0; strip < height; strip += kTileRows) {
    const std::int64_t rows = std::min(kTileRows, height - strip);
    for (std::int64_t p = 0; p < depth; ++p) {
      float* column = packed + (strip * depth) + p * kTileRows;
      for (std::int64_t i = 0; i < rows; ++i) column[i] = a.at(i0 + strip + i, p0 + p);
      std::fill(column + rows, column + kTileRows, 0.0f);
    }
  }
}

// One tile: each of its results sums its `depth` products one after another with fused
// multiply-adds, from zero, and that sum is then added to the result. Every lane of the SIMD
// versions performs exactly the scalar version's operations on its own result, so all three
// give the same bits.
#if defined(__AVX2__) && defined(__FMA__)
void tile_sums(const float* a, const float* b, std::int64_t depth,
               float (&sum)[kTileRows][kTileColumns]) {
  static_assert(kTileRows == 6 && kTileColumns == 16);
  // Twelve named sums rather than an array: g++ keeps an array in memory.
  __m256 l0{}, r0{}, l1{}, r1{}, l2{}, r2{}, l3{}, r3{}, l4{}, r4{}, l5{}, r5{};
  for (std::int64_t p = 0; p < depth; ++p, a += kTileRows, b += kTileColumns) {
    const __m256 b_left = _mm256_loadu_ps(b), b_right = _mm256_loadu_ps(b + 8);
    const auto update = [&](__m256& left, __m256& right, const float* a_value) {
      const __m256 broadcast = _mm256_broadcast_ss(a_value);
      left = _mm256_fmadd_ps(broadcast, b_left, left);
      right = _mm256_fmadd_ps(broadcast, b_right, right);
    };
    update(l0, r0, a);
    update(l1, r1, a + 1);
    update(l2, r2, a + 2);
    update(l3, r3, a + 3);
    update(l4, r4, a + 4);
    update(l5, r5, a + 5);
  }
  const __m256 rows[kTileRows][2] = {{l0, r0}, {l1, r1}, {l2, r2}, {l3, r3}, {l4, r4}, {l5, r5}};
  for (std::int64_t i = 0; i < kTileRows; ++i) {
    _mm256_storeu_ps(sum[i], rows[i][0]);
    _mm256_storeu_ps(sum[i] + 8, rows[i][1]);
  }
}
#elif defined(__aarch64__)
void tile_sums(const float* a, const float* b, std::int64_t depth,
               float (&sum)[kTileRows][kTileColumns]) {
  static_assert(kTileRows == 6 && kTileColumns == 16);
  struct Row {  // one row's sixteen sums; named, not an array, for g++'s sake as above
    float32x4_t q0, q1, q2, q3;
  };
  Row s0{}, s1{}, s2{}, s3{}, s4{}, s5{};
  for (std::int64_t p = 0; p < depth; ++p, a += kTileRows, b += kTileColumns) {
    const float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4), b2 = vld1q_f32(b + 8),
                      b3 = vld1q_f32(b + 12);
    const auto update = [&](Row& row, float a_value) {
      row.q0 = vfmaq_n_f32(row.q0, b0, a_value);
      row.q1 = vfmaq_n_f32(row.q1, b1, a_value);
      row.q2 = vfmaq_n_f32(row.q2, b2, a_value);
      row.q3 = vfmaq_n_f32(row.q3, b3, a_value);
    };
    update(s0, a[0]);
    update(s1, a[1]);
    update(s2, a[2]);
    update(s3, a[3]);
    update(s4, a[4]);
    update(s5, a[5]);
  }
  const Row rows[kTileRows] = {s0, s1, s2, s3, s4, s5};
  for (std::int64_t i = 0; i < kTileRows; ++i) {
    vst1q_f32(sum[i], rows[i].q0);
    vst1q_f32(sum[i] + 4, rows[i].q1);
    vst1q_f32(sum[i] + 8, rows[i].q2);
    vst1q_f32(sum[i] + 12, rows[i].q3);
  }
}
#else
void tile_sums(const float* a, const float* b, std::int64_t depth,
               float (&sum)[kTileRows][kTileColumns]) {
  for (auto& row : sum) std::fill(std::begin(row), std::end(row), 0.0f);
  for (std::int64_t p = 0; p < depth; ++p) {
    for (std::int64_t i = 0; i < kTileRows; ++i) {
      for (std::int64_t j = 0; j < kTileColumns; ++j) {
        sum[i][j] = std::fma(a[p * kTileRows + i], b[p * kTileColumns + j], sum[i][j]);
      }
    }
  }
}
#endif

void micro_kernel(const float* a, const float* b, std::int64_t depth, float* c, std::int64_t ldc,
                  std::int64_t rows, std::int64_t columns) {
  float sum[kTileRows][kTileColumns];
  tile_sums(a, b, depth, sum);
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < columns; ++j) c[i * ldc + j] += sum[i][j];
  }
}

// c (m, n) += a (m, k) b (k, n), c row-major.
void accumulate_product(const Operand& a, const Operand& b, float* c, std::int64_t m,
                        std::int64_t k, std::int64_t n) {
  const CacheBlocking blocks = cache_blocking();
  thread_local std::vector<float> packed_a, packed_b;
  const auto round_up = [](std::int64_t value, std::int64_t unit) {
    return (value + unit - 1) / unit * unit;
  };
  for (std::int64_t j0 = 0; j0 < n; j0 += blocks.columns) {
    const std::int64_t width = std::min(blocks.columns, n - j0);
    for (std::int64_t p0 = 0; p0 < k; p0 += kDepth) {  // the blocks of every sum, in order
      const std::int64_t depth = std::min(kDepth, k - p0);
      packed_b.resize(static_cast<std::size_t>(round_up(width, kTileColumns) * depth));
      pack_b(b, p0, depth, j0, width, packed_b.data());
      for (std::int64_t i0 = 0; i0 < m; i0 += blocks.rows) {
        const std::int64_t height = std::min(blocks.rows, m - i0);
        packed_a.resize(static_cast<std::size_t>(round_up(height, kTileRows) * depth));
        pack_a(a, i0, height, p0, depth, packed_a.data());
        for (std::int64_t j = 0; j < width; j += kTileColumns) {
          for (std::int64_t i = 0; i < height; i += kTileRows) {
            micro_kernel(packed_a.data() + i * depth, packed_b.data() + j * depth, depth,
                         c + (i0 + i) * n + j0 + j, n, std::min(kTileRows, height - i),
                         std::min(kTileColumns, width - j));
          }
        }
      }
    }
  }
}

}  // namespace

void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
            std::int64_t n) {
  std::fill(c, c + m * n, 0.0f);
  accumulate_product({a, k, 1}, {b, n, 1}, c, m, k, n);
}

void matmul_transposed_a(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
                         std::int64_t n) {
  std::fill(c, c + m * n, 0.0f);
  accumulate_product({a, 1, m}, {b, n, 1}, c, m, k, n);
}

void linear(const float* x, const float* w, const float* bias, float* y, std::int64_t rows,
            std::int64_t in, std::int64_t out) {
  for (std::int64_t r = 0; r < rows; ++r) {
    if (bias != nullptr) {
      std::copy(bias, bias + out, y + r * out);
    } else {
      std::fill(y + r * out, y + (r + 1) * out, 0.0f);
    }
  }
  accumulate_product({x, in, 1}, {w, 1, in}, y, rows, in, out);
}

void transpose_last_two(const float* in, float* out, std::int64_t batches, std::int64_t rows,
                        std::int64_t cols) {
  for (std::int64_t b = 0; b < batches; ++b) {
    const float* from = in + b * rows * cols;
    float* to = out + b * rows * cols;
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t col = 0; col < cols; ++col) to[col * rows + r] = from[r * cols + col];
    }
  }
}

}  // namespace engine::kernels
