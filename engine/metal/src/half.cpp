#include "engine/metal/half.h"

#include <bit>
#include <cmath>

namespace engine::metal {

std::uint16_t half_bits(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  const std::uint32_t magnitude = f & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) {  // infinity or NaN (a NaN keeps a quiet payload bit)
    return static_cast<std::uint16_t>(sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u));
  }
  if (magnitude >= 0x477ff000u)
    return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds past 65504
  const int exponent = static_cast<int>(magnitude >> 23) - 127;
  if (exponent < -25) return static_cast<std::uint16_t>(sign);  // below half the smallest subnormal
  std::uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;  // with the implicit bit
  // A normal half keeps 10 fraction bits: drop 13. A subnormal keeps fewer: drop more.
  const int shift = exponent < -14 ? 13 + (-14 - exponent) : 13;
  const std::uint32_t kept = mantissa >> shift;
  const std::uint32_t rest = mantissa & ((1u << shift) - 1);
  const std::uint32_t halfway = 1u << (shift - 1);
  std::uint32_t rounded = kept + ((rest > halfway || (rest == halfway && (kept & 1u))) ? 1u : 0u);
  if (exponent < -14) return static_cast<std::uint16_t>(sign | rounded);  // may round up to normal
  rounded += static_cast<std::uint32_t>(exponent + 15 - 1) << 10;  // the implicit bit adds one
  return static_cast<std::uint16_t>(sign | rounded);
}

float half_from_bits(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  const std::uint32_t fraction = bits & 0x3ffu;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (fraction << 13));
  if (exponent == 0) {  // zero or subnormal: fraction x 2^-24, exact in float
    const float magnitude = std::ldexp(static_cast<float>(fraction), -24);
    return sign ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (fraction << 13));
}

float round_to_half(float value) { return half_from_bits(half_bits(value)); }

}  // namespace engine::metal
