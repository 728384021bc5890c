#pragma once
// Internal: the numeric kernels, on contiguous row-major float32 data. Eigen lives only in
// their .cpp files, behind these non-template functions, so nothing that includes an engine
// header pays Eigen's compile time.

#include <cstdint>

namespace engine::kernels {

// out[o, i] = mean over r of in[o, r, i], for the view (outer, reduce, inner).
void mean_over_axis(const float* in, float* out, std::int64_t outer, std::int64_t reduce,
                    std::int64_t inner);
// c (m, n) = a (m, k) b (k, n)
void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
            std::int64_t n);
// y (rows, out) = x (rows, in) w (out, in)^T + bias (out), bias may be null
void linear(const float* x, const float* w, const float* bias, float* y, std::int64_t rows,
            std::int64_t in, std::int64_t out);

}  // namespace engine::kernels
