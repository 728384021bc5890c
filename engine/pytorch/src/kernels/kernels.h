#pragma once
// Internal: the numeric kernels, on contiguous row-major data (float32 unless a kernel says
// otherwise), behind declarations only, so nothing that includes an engine header pays for their
// implementation.

#include <cstdint>
#include <vector>

namespace engine::kernels {

// Division's three forms: true division (`/`), and rounding towards minus infinity
// (floor_divide, `//`) or towards zero (div with rounding_mode "trunc").
enum class BinaryOp { Add, Sub, Mul, Div, FloorDiv, TruncDiv };
enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge };

// The elementwise kernels exist for each compute type T: float (float32, and float16 and
// bfloat16 widened: Note [Half precision computes in float32]), double, std::int64_t (every
// integer type, whose results wrap as PyTorch's do) and bool (add is or, mul is and).
// out = a op b, elementwise with broadcasting: a_strides and b_strides give each operand's
// element step per output dimension (0 where it is broadcast).
template <typename T>
void binary(BinaryOp op, const T* a, const std::vector<std::int64_t>& a_strides, const T* b,
            const std::vector<std::int64_t>& b_strides, T* out,
            const std::vector<std::int64_t>& out_shape);
// out = x op scalar (scalar_first: scalar op x)
template <typename T>
void binary_scalar(BinaryOp op, const T* x, T scalar, bool scalar_first, T* out, std::int64_t n);
// out = a op b as bool, elementwise with broadcasting.
template <typename T>
void compare(CompareOp op, const T* a, const std::vector<std::int64_t>& a_strides, const T* b,
             const std::vector<std::int64_t>& b_strides, bool* out,
             const std::vector<std::int64_t>& out_shape);

// relu, tanh and pow exist for T = float and double.
template <typename T>
void relu(const T* x, T* out, std::int64_t n);
// grad where the relu's result is > 0 (exactly where its input was), else 0
template <typename T>
void relu_backward(const T* grad, const T* result, T* out, std::int64_t n);

// out[o, i] = sum over r of in[o, r, i], for the view (outer, reduce, inner), scaled; for
// T = float and double, accumulated in double.
template <typename T>
void sum_over_axis(const T* in, T* out, std::int64_t outer, std::int64_t reduce, std::int64_t inner,
                   double scale = 1.0);

// softmax over the middle axis of the view (outer, n, inner), and its backward:
// grad_in = out * (grad_out - sum(grad_out * out))
void softmax(const float* in, float* out, std::int64_t outer, std::int64_t n, std::int64_t inner);
void softmax_backward(const float* grad_out, const float* out, float* grad_in, std::int64_t outer,
                      std::int64_t n, std::int64_t inner);

// layer_norm over the last `n` values of each of `rows` rows; mean and rstd (1/sqrt(var + eps))
// are saved per row for the backward pass. weight and bias may be null.
void layer_norm(const float* x, const float* weight, const float* bias, float* y, float* mean,
                float* rstd, std::int64_t rows, std::int64_t n, float eps);
// dx, and the accumulations dweight += sum(g * xhat), dbias += sum(g) when those are not null
void layer_norm_backward(const float* g, const float* x, const float* weight, const float* mean,
                         const float* rstd, float* dx, float* dweight, float* dbias,
                         std::int64_t rows, std::int64_t n);

// tanh, and its backward from the result: grad * (1 - y^2) (ATen's tanh_backward)
template <typename T>
void tanh(const T* x, T* out, std::int64_t n);
template <typename T>
void tanh_backward(const T* grad, const T* result, T* out, std::int64_t n);
// x to a scalar power: a whole exponent by repeated multiplication (x * x * x for 3, as ATen's
// pow does), 0.5 by the square root, any other through exp and log (NaN for a negative base)
template <typename T>
void pow_scalar(const T* x, double exponent, T* out, std::int64_t n);

// GELU with the exact erf form (nn.GELU's default): x * (1 + erf(x / sqrt(2))) / 2
void gelu(const float* x, float* out, std::int64_t n);
void gelu_backward(const float* grad, const float* x, float* out, std::int64_t n);

// log_softmax over the middle axis of the view (outer, n, inner), and its backward:
// grad_in = grad_out - exp(out) * sum(grad_out)
void log_softmax(const float* in, float* out, std::int64_t outer, std::int64_t n,
                 std::int64_t inner);
void log_softmax_backward(const float* grad_out, const float* out, float* grad_in,
                          std::int64_t outer, std::int64_t n, std::int64_t inner);

// Note [Summation order on the cpu]
// Every result of a cpu matrix product (matmul, linear, their backward products) adds its k
// products in blocks of kCpuProductDepth, the depth of one packed panel in a BLAS: within a
// block, one after another with fused multiply-adds starting from zero, the way an sgemm
// micro-kernel accumulates a panel in a register on AVX2, AVX-512 and NEON alike; each block's
// sum is then added to the result, which starts at zero (or at the bias, as addmm's does). The
// order depends on nothing else, not the host's caches, SIMD width, compiler or BLAS, so the
// same bits come out everywhere (Note [The same bits on every host], portable_math.h). It is
// an order of the engine's own, not the one of the BLAS a real PyTorch links (those tune their
// blocking to each CPU), and it differs from the emulated GPU's (mps_kernels.h), as a real cpu's
// and GPU's do.
inline constexpr std::int64_t kCpuProductDepth = 256;

// c (m, n) = a (m, k) b (k, n)
void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
            std::int64_t n);
// c (m, n) = a^T b, with a stored as (k, m)
void matmul_transposed_a(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
                         std::int64_t n);
// y (rows, out) = x (rows, in) w (out, in)^T + bias (out); bias may be null
void linear(const float* x, const float* w, const float* bias, float* y, std::int64_t rows,
            std::int64_t in, std::int64_t out);

// c (m, n) = a (m, k) b (k, n) for T = double (in the order above, one result at a time) and
// std::int64_t (wrapping), on either device: the products no kernel above serves.
template <typename T>
void matmul_generic(const T* a, const T* b, T* c, std::int64_t m, std::int64_t k, std::int64_t n);

// out (cols, rows) = in (rows, cols)^T for each of `batches` matrices
void transpose_last_two(const float* in, float* out, std::int64_t batches, std::int64_t rows,
                        std::int64_t cols);

}  // namespace engine::kernels
