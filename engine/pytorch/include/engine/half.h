#pragma once
// Models c10::Half (IEEE binary16) and c10::BFloat16 (the top half of a float32): 16-bit storage
// types. Like c10's, they hold bits and do no arithmetic of their own: kernels widen them to
// float32, compute there, and round the result back (at::opmath_type; Note [Half precision
// computes in float32], tensor/opmath.h).
//
// Note [Portable half rounding]
// The conversions are integer operations on the bits, never a host's _Float16 or a conversion
// instruction, so every host rounds alike. float32 to binary16 rounds to nearest, ties to even,
// as c10's fp16_ieee_from_fp32_value (c10/util/Half.h) and the F16C and NEON instructions do:
// overflow past 65504 (from 65520 up) gives infinity, and values below 2^-14 become subnormal,
// down to 2^-24. A NaN keeps its sign and becomes the quiet NaN 0x7e00, as c10's does. float32
// to bfloat16 is c10's round_to_nearest_even (c10/util/BFloat16.h): a NaN becomes 0x7fc0.

#include <bit>
#include <cstdint>

namespace engine {

namespace detail {

constexpr float half_bits_to_float(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000U) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fU;
  std::uint32_t mantissa = h & 0x3ffU;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000U | (mantissa << 13));
  if (exponent != 0)
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
  if (mantissa == 0) return std::bit_cast<float>(sign);
  std::uint32_t shift = 0;  // a subnormal: normalise it, float32 has the range
  while ((mantissa & 0x400U) == 0) {
    mantissa <<= 1;
    ++shift;
  }
  return std::bit_cast<float>(sign | ((113 - shift) << 23) | ((mantissa & 0x3ffU) << 13));
}

// `value` shifted right by `shift` bits, rounded to nearest with ties to even.
constexpr std::uint32_t shift_right_rounded(std::uint32_t value, std::uint32_t shift) noexcept {
  const std::uint32_t kept = value >> shift;
  const std::uint32_t rest = value & ((1U << shift) - 1);
  const std::uint32_t tie = 1U << (shift - 1);
  return kept + ((rest > tie || (rest == tie && (kept & 1U) != 0)) ? 1U : 0U);
}

constexpr std::uint16_t float_to_half_bits(float value) noexcept {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000U);
  const std::uint32_t magnitude = bits & 0x7fffffffU;
  if (magnitude > 0x7f800000U) return sign | 0x7e00U;   // NaN
  if (magnitude >= 0x47800000U) return sign | 0x7c00U;  // 65536 and up, infinity included
  if (magnitude >= 0x38800000U) {                       // a normal half: rebias, round 13 bits
    return static_cast<std::uint16_t>(sign | shift_right_rounded(magnitude - 0x38000000U, 13));
  }
  if (magnitude <= 0x33000000U) return sign;  // 2^-25 and below: zero (2^-25 ties to even)
  // A subnormal half counts units of 2^-24: the float's significand shifted into place.
  const std::uint32_t exponent = magnitude >> 23;
  const std::uint32_t significand = (magnitude & 0x7fffffU) | 0x800000U;
  return static_cast<std::uint16_t>(sign | shift_right_rounded(significand, 126 - exponent));
}

constexpr std::uint16_t float_to_bfloat16_bits(float value) noexcept {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  if ((bits & 0x7fffffffU) > 0x7f800000U) return 0x7fc0U;
  return static_cast<std::uint16_t>((bits + 0x7fffU + ((bits >> 16) & 1U)) >> 16);
}

}  // namespace detail

struct Half {
  std::uint16_t x = 0;  // the bits, as c10::Half names them

  constexpr Half() = default;
  constexpr explicit Half(float value) : x(detail::float_to_half_bits(value)) {}
  static constexpr Half from_bits(std::uint16_t bits) {
    Half h;
    h.x = bits;
    return h;
  }
  constexpr explicit operator float() const { return detail::half_bits_to_float(x); }
};

struct BFloat16 {
  std::uint16_t x = 0;

  constexpr BFloat16() = default;
  constexpr explicit BFloat16(float value) : x(detail::float_to_bfloat16_bits(value)) {}
  static constexpr BFloat16 from_bits(std::uint16_t bits) {
    BFloat16 b;
    b.x = bits;
    return b;
  }
  constexpr explicit operator float() const {
    return std::bit_cast<float>(static_cast<std::uint32_t>(x) << 16);
  }
};

}  // namespace engine
