// The AVX2 kernel evaluates log, sin and cos with the Cephes polynomials of avx_mathfun.h
// (aten/src/ATen/native/cpu/avx_mathfun.h), and GCC fused their multiply-adds when it compiled
// PyTorch's x86 wheel. The scalar code below performs exactly the float operations of that
// machine code (read from the disassembly of Debian's libtorch_cpu 1.13.1), with std::fma where
// it has a fused instruction; the engine is compiled with -ffp-contract=off so no other
// operation is fused. tests/engine/pytorch/random_test.cpp checks the result against real PyTorch.

#include "random/samplers.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>

#include "kernels/portable_math.h"

namespace engine::detail {
namespace {

float bits_to_float(std::uint32_t bits) { return std::bit_cast<float>(bits); }
std::uint32_t float_to_bits(float value) { return std::bit_cast<std::uint32_t>(value); }

// log256_ps: natural log from the exponent and a degree-8 polynomial of the mantissa.
float cephes_log(float x) {
  const bool invalid = x <= 0.0f;
  x = std::max(x, bits_to_float(0x00800000));  // smallest normal float
  const auto exponent_bits = static_cast<std::int32_t>(float_to_bits(x) >> 23);
  x = bits_to_float((float_to_bits(x) & ~0x7f800000U) | float_to_bits(0.5f));
  float e = static_cast<float>(exponent_bits - 0x7f) + 1.0f;
  const bool below_sqrt_half = x < static_cast<float>(0.707106781186547524);
  const float shift = below_sqrt_half ? x : 0.0f;
  x = x - 1.0f;
  e = e - (below_sqrt_half ? 1.0f : 0.0f);
  x = x + shift;
  const float z = x * x;
  constexpr float kP[] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                          -1.2420140846E-1f, 1.4249322787E-1f,  -1.6668057665E-1f,
                          2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f};
  float y = kP[0];
  for (int i = 1; i < 9; ++i) y = std::fma(y, x, kP[i]);
  y = y * x;
  y = std::fma(y, z, e * -2.12194440e-4f);
  y = std::fma(-z, 0.5f, y);
  x = x + y;
  x = std::fma(e, 0.693359375f, x);
  return invalid ? std::numeric_limits<float>::quiet_NaN() : x;
}

// sincos256_ps: reduce by multiples of pi/4, then one of two polynomials per octant.
void cephes_sincos(float angle, float& sine, float& cosine) {
  std::uint32_t sin_sign = float_to_bits(angle) & 0x80000000U;
  float x = bits_to_float(float_to_bits(angle) & 0x7fffffffU);
  std::int32_t octant = static_cast<std::int32_t>(x * static_cast<float>(1.27323954473516));
  octant = (octant + 1) & ~1;
  const float y = static_cast<float>(octant);
  const std::uint32_t sin_swap = static_cast<std::uint32_t>(octant & 4) << 29;
  const bool sine_polynomial_for_sine = (octant & 2) == 0;
  x = std::fma(y, -0.78515625f, x);
  x = std::fma(y, -2.4187564849853515625e-4f, x);
  x = std::fma(y, static_cast<float>(-3.77489497744594108e-8), x);
  const std::uint32_t cos_sign = static_cast<std::uint32_t>(~(octant - 2) & 4) << 29;
  sin_sign ^= sin_swap;
  const float z = x * x;
  float cos_poly = static_cast<float>(2.443315711809948E-005);
  cos_poly = std::fma(cos_poly, z, static_cast<float>(-1.388731625493765E-003));
  cos_poly = std::fma(cos_poly, z, static_cast<float>(4.166664568298827E-002));
  cos_poly = cos_poly * z;
  cos_poly = std::fma(cos_poly, z, -(z * 0.5f));
  cos_poly = cos_poly + 1.0f;
  float sin_poly = -1.9515295891E-4f;
  sin_poly = std::fma(sin_poly, z, 8.3321608736E-3f);
  sin_poly = std::fma(sin_poly, z, -1.6666654611E-1f);
  sin_poly = sin_poly * z;
  sin_poly = std::fma(sin_poly, x, x);
  const float sin_part = sine_polynomial_for_sine ? sin_poly : 0.0f;
  const float cos_part = sine_polynomial_for_sine ? 0.0f : cos_poly;
  sin_poly = sin_poly - sin_part;
  cos_poly = cos_poly - cos_part;
  sine = bits_to_float(float_to_bits(cos_part + sin_part) ^ sin_sign);
  cosine = bits_to_float(float_to_bits(cos_poly + sin_poly) ^ cos_sign);
}

// normal_fill_16_AVX2 for mean 0, std 1: lanes j and j + 8 form one Box-Muller pair.
void box_muller_16_avx2(float* data) {
  const float two_pi = static_cast<float>(2.0f * std::numbers::pi);
  for (int j = 0; j < 8; ++j) {
    const float radius = std::sqrt(-2.0f * cephes_log(1.0f - data[j]));
    float sine = 0.0f, cosine = 0.0f;
    cephes_sincos(two_pi * data[j + 8], sine, cosine);
    data[j] = radius * cosine;
    data[j + 8] = radius * sine;
  }
}

// normal_fill_16, the portable kernel. PyTorch calls the C library's float log, sin and cos
// here; the engine's correctly rounded ones stand in (Note [The same bits on every host]).
void box_muller_16_portable(float* data) {
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1 - data[j];
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2 * kernels::portable::logf(u1));
    const auto theta = static_cast<float>(2.0f * std::numbers::pi * u2);
    double sine = 0, cosine = 0;
    kernels::portable::sin_cos(theta, sine, cosine);
    data[j] = radius * static_cast<float>(cosine);
    data[j + 8] = radius * static_cast<float>(sine);
  }
}

// One uniform of type T in [0, 1): the type's digits of random bits (53 for double, from random64).
template <typename T>
T uniform_of(CpuGenerator& gen) {
  if constexpr (std::is_same_v<T, double>) {
    return gen.uniform_double();
  } else {
    constexpr int kDigits = std::is_same_v<T, Half> ? 11 : 8;
    const std::uint32_t bits = gen.random() & ((1U << kDigits) - 1);
    return T(static_cast<float>(bits) * (1.0f / static_cast<float>(1U << kDigits)));
  }
}

// normal_fill_16<double>: Box-Muller in double.
void box_muller_16(double* data) {
  for (int j = 0; j < 8; ++j) {
    const double radius = std::sqrt(-2 * kernels::portable::log(1 - data[j]));
    double sine = 0, cosine = 0;
    kernels::portable::sin_cos(2.0f * std::numbers::pi * data[j + 8], sine, cosine);
    data[j] = radius * cosine;
    data[j + 8] = radius * sine;
  }
}

// normal_fill_16<c10::Half> (or BFloat16), mean 0 and std 1: each c10 operator and each math
// function of a half type (c10/util/BFloat16-math.h: computed in float) rounds its result into
// the half type.
template <typename T>
void box_muller_16(T* data) {
  for (int j = 0; j < 8; ++j) {
    const T u1 = T(1.0f - static_cast<float>(data[j]));
    const T log_u1 = T(kernels::portable::logf(static_cast<float>(u1)));
    const T radius = T(std::sqrt(static_cast<float>(T(-2 * static_cast<float>(log_u1)))));
    const T theta =
        T(static_cast<float>(2.0f * std::numbers::pi * static_cast<float>(data[j + 8])));
    double sine = 0, cosine = 0;
    kernels::portable::sin_cos(static_cast<float>(theta), sine, cosine);
    data[j] = T(static_cast<float>(radius) * static_cast<float>(T(static_cast<float>(cosine))));
    data[j + 8] = T(static_cast<float>(radius) * static_cast<float>(T(static_cast<float>(sine))));
  }
}

}  // namespace

template <typename T>
void fill_uniform(T* data, std::int64_t size, CpuGenerator& gen) {
  for (std::int64_t i = 0; i < size; ++i) data[i] = uniform_of<T>(gen);
}

template <typename T>
void fill_standard_normal(T* data, std::int64_t size, CpuGenerator& gen) {
  if (size < 16) {
    for (std::int64_t i = 0; i < size; ++i) {
      const double sample = gen.standard_normal_double();
      if constexpr (std::is_same_v<T, double>) {
        data[i] = sample;
      } else {
        data[i] = T(static_cast<float>(sample));  // static_cast<c10::Half>(double): via float
      }
    }
    return;
  }
  fill_uniform(data, size, gen);
  for (std::int64_t i = 0; i + 16 <= size; i += 16) box_muller_16(data + i);
  if (size % 16 != 0) {
    T* tail = data + size - 16;  // overlaps values already transformed, as in PyTorch
    fill_uniform(tail, 16, gen);
    box_muller_16(tail);
  }
}

template void fill_uniform<double>(double*, std::int64_t, CpuGenerator&);
template void fill_uniform<Half>(Half*, std::int64_t, CpuGenerator&);
template void fill_uniform<BFloat16>(BFloat16*, std::int64_t, CpuGenerator&);
template void fill_standard_normal<double>(double*, std::int64_t, CpuGenerator&);
template void fill_standard_normal<Half>(Half*, std::int64_t, CpuGenerator&);
template void fill_standard_normal<BFloat16>(BFloat16*, std::int64_t, CpuGenerator&);

void fill_uniform(float* data, std::int64_t size, CpuGenerator& gen, double from, double to,
                  CpuKernels kernels) {
  const auto low = static_cast<float>(from);
  const auto high = static_cast<float>(to);
  const bool fused = kernels != CpuKernels::X86Baseline;
  for (std::int64_t i = 0; i < size; ++i) data[i] = gen.uniform_float(low, high, fused);
}

void fill_bernoulli(float* data, std::int64_t size, CpuGenerator& gen, double p) {
  for (std::int64_t i = 0; i < size; ++i) data[i] = gen.uniform_double() < p ? 1.0f : 0.0f;
}

void fill_standard_normal(float* data, std::int64_t size, CpuGenerator& gen, CpuKernels kernels) {
  if (size < 16) {
    for (std::int64_t i = 0; i < size; ++i) {
      data[i] = static_cast<float>(gen.standard_normal_double());
    }
    return;
  }
  auto transform = kernels == CpuKernels::X86Avx2 ? box_muller_16_avx2 : box_muller_16_portable;
  fill_uniform(data, size, gen, 0.0, 1.0, kernels);
  for (std::int64_t i = 0; i + 16 <= size; i += 16) transform(data + i);
  if (size % 16 != 0) {
    float* tail = data + size - 16;  // overlaps values already transformed, as in PyTorch
    fill_uniform(tail, 16, gen, 0.0, 1.0, kernels);
    transform(tail);
  }
}

}  // namespace engine::detail
