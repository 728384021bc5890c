#pragma once
// PyTorch's CPU sampling kernels (aten/src/ATen/native/cpu/DistributionTemplates.h), which
// decide how the generator's bits become tensor values.

#include <cstdint>

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

}  // namespace engine::detail
