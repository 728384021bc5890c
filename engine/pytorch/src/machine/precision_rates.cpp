// Note [Precision on Apple GPUs]
// What computing in float16 or bfloat16 buys on each chip, per generation (constants marked as
// in Note [The cost model]):
//   - Apple GPUs from the M1 on run float16 arithmetic at float32's rate: Philip Turner's
//     metal-benchmarks (github.com/philipturner/metal-benchmarks, its table of GPU generations)
//     lists the M1 family's GOPS16 equal to its GOPS32, where the iPhone GPUs before it (A7 to
//     A14) ran float16 at twice float32. [measured] for the M1 and M2 families; [estimate] that the
//     M3 and M4 (family 9), whose GPU added dynamic caching and concurrent float16 and float32
//     issue rather than wider float16 units, keep it. So half precision gains an Apple GPU
//     nothing in arithmetic: a matrix product bound by its arithmetic runs as fast in float16 as in
//     float32, and half precision helps only where memory traffic decides, by halving the bytes.
//   - bfloat16 has no hardware on the M1 and M2: Metal emulates it through float32 (noted in
//     huggingface/transformers#40458), and an early bfloat16 GEMM reached 50-60 % of float32 on an
//     M1 (philipturner/metal-flash-attention#17); MLX measured bfloat16 well below float16 on an M2
//     Ultra (ml-explore/mlx-examples#186: 12.1 against 20.7 prompt tokens per second). [measured]
//     0.55 of float32 on families 7 and 8. The M3 and M4 compute bfloat16 natively [estimate]: at
//     float32's rate, no faster (an M4 Max trained no faster in bfloat16 than in float32,
//     karpathy/nanochat#244).
//   - Integers: Apple GPUs multiply 32-bit integers at half the float32 rate (metal-benchmarks'
//     GIPS column, half of GOPS32 on the M1). [measured]
//   - The cpu: PyTorch's products call Accelerate (the AMX units) through cblas for float32 and
//     float64 only (aten/src/ATen/native/BlasKernel.cpp: sgemm and dgemm); float16, bfloat16 and
//     integer products run PyTorch's own kernels on the cores, computing in float32. [estimate]
//     float64 on the AMX units at a quarter of float32 (their 64-bit multiply-add covers an 8 x 8
//     grid where the 32-bit one covers 16 x 16: corsix/amx, fma64 and fma32), and on the cores'
//     vectors at half (two lanes where float32 has four).

#include "machine/precision_rates.h"

namespace engine::detail {
namespace {

constexpr double kEmulatedBFloat16 = 0.55;  // M1 and M2: bfloat16 through float32
constexpr double kGpuIntegerRate = 0.5;     // 32-bit integer multiplies
constexpr double kAmxFloat64Rate = 0.25;
constexpr double kVectorFloat64Rate = 0.5;

}  // namespace

double gpu_arithmetic_rate(int family, ScalarType dtype) {
  if (dtype == ScalarType::BFloat16) return family >= 9 ? 1.0 : kEmulatedBFloat16;
  if (is_floating_point(dtype)) return 1.0;  // float16 and float32 alike (mps has no float64)
  return kGpuIntegerRate;
}

double amx_rate(ScalarType dtype) {
  if (dtype == ScalarType::Float) return 1.0;
  return dtype == ScalarType::Double ? kAmxFloat64Rate : 0.0;
}

double cpu_vector_rate(ScalarType dtype) {
  return dtype == ScalarType::Double ? kVectorFloat64Rate : 1.0;
}

}  // namespace engine::detail
