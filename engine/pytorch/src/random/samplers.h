#pragma once
// PyTorch's CPU sampling kernels (aten/src/ATen/native/cpu/DistributionTemplates.h), which
// decide how the generator's bits become tensor values.

#include <cstdint>

#include "engine/half.h"
#include "random/cpu_generator.h"

namespace engine::detail {

// Which build of PyTorch's CPU kernels runs, chosen at start-up from the CPU:
// - X86Avx2: x86 with AVX2. normal_kernel uses its AVX2 sampler (different values for 16 or
//   more samples), and the compiler fused uniform_'s multiply-add (checked against PyTorch).
// - X86Baseline: x86 without AVX2 (also x86 code under Rosetta 2): the portable sampler and
//   no fused multiply-add (checked against PyTorch with ATEN_CPU_CAPABILITY=default).
// - Arm64: Apple silicon: the portable sampler; clang fuses the multiply-add there, which is
//   inferred from its default -ffp-contract=on, not measured on a Mac.
enum class CpuKernels { X86Avx2, X86Baseline, Arm64 };

// torch.randn on cpu: fewer than 16 values come one at a time from the double Box-Muller;
// 16 or more are filled with uniforms, transformed 16 at a time, and a ragged tail is redrawn
// as the last 16 values.
void fill_standard_normal(float* data, std::int64_t size, CpuGenerator& gen, CpuKernels kernels);

// uniform_(from, to) and torch.rand, one value per generator draw, in order.
void fill_uniform(float* data, std::int64_t size, CpuGenerator& gen, double from, double to,
                  CpuKernels kernels);

// torch.randn and torch.rand in float64, float16 and bfloat16: normal_kernel's and
// uniform_kernel's other dtypes (DistributionTemplates.h). A uniform takes 53 bits of random64()
// in float64, and 11 or 8 bits of random() in float16 or bfloat16 (at::uniform_real_distribution
// with the type's digits). randn of 16 or more values fills them with uniforms and transforms
// them 16 at a time in the dtype's own arithmetic (normal_fill_16<scalar_t>: c10::Half's operators
// round each intermediate to float16, std::log and std::cos run in float); fewer come one at a
// time from the double Box-Muller, rounded into the dtype.
template <typename T>
void fill_standard_normal(T* data, std::int64_t size, CpuGenerator& gen);
template <typename T>
void fill_uniform(T* data, std::int64_t size, CpuGenerator& gen);

// bernoulli_(p) on the cpu without MKL (bernoulli_kernel): per element in order, a 53-bit double
// uniform from random64() (at::uniform_real_distribution<double>), 1 when it is below p, else 0.
void fill_bernoulli(float* data, std::int64_t size, CpuGenerator& gen, double p);

}  // namespace engine::detail
