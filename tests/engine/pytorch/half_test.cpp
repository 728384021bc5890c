// Note [Portable half rounding] (engine/half.h): the engine's float16 and bfloat16 conversions,
// integer operations on the bits, against an independent reference made of the host's exact
// double arithmetic, and on the cases where rounding is easiest to get wrong.

#include "engine/half.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using engine::BFloat16;
using engine::Half;

namespace {

std::uint16_t half_bits(float value) { return Half(value).x; }
std::uint16_t bfloat16_bits(float value) { return BFloat16(value).x; }

// The float16 nearest to a finite float, ties to even, computed in double: every float16 is
// m x 2^e with a 10-bit fraction, so scaling the value to count units of its float16 exponent's
// last place and rounding that with nearbyint (round half to even, exact in double) finds it.
double reference_half(float value) {
  const double x = value;
  if (x == 0) return x;
  const int exponent = std::max(std::ilogb(x), -14);  // subnormals share 2^-14's spacing
  const double unit = std::ldexp(1.0, exponent - 10);
  const double rounded = std::nearbyint(x / unit) * unit;
  return std::abs(rounded) > 65504 ? std::copysign(std::numeric_limits<double>::infinity(), x)
                                   : rounded;
}

// The same for bfloat16: 7 fraction bits, float32's exponent range.
double reference_bfloat16(float value) {
  const double x = value;
  if (x == 0) return x;
  const int exponent = std::max(std::ilogb(x), -126);
  const double unit = std::ldexp(1.0, exponent - 7);
  return std::nearbyint(x / unit) * unit;
}

}  // namespace

TEST_CASE("every float16 survives the trip through float32 and back") {
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const Half h = Half::from_bits(static_cast<std::uint16_t>(bits));
    const float f = static_cast<float>(h);
    CAPTURE(bits);
    if (std::isnan(f)) {
      CHECK((Half(f).x & 0x7fffU) == 0x7e00U);  // NaN: the quiet one, sign kept
    } else {
      CHECK(Half(f).x == bits);
    }
  }
}

TEST_CASE("float32 rounds to the nearest float16, ties to even, as an exact reference does") {
  std::mt19937 random(38);
  std::uniform_int_distribution<std::uint32_t> any_bits;
  int compared = 0;
  for (int i = 0; i < 200000; ++i) {
    const auto value = std::bit_cast<float>(any_bits(random));
    if (!std::isfinite(value) || value == 0) continue;
    int exponent = 0;  // the significand kept, moved across float16's range and past it
    const float scaled = std::ldexp(std::frexp(value, &exponent), static_cast<int>(i % 50) - 30);
    CAPTURE(scaled);
    CHECK(static_cast<double>(static_cast<float>(Half(scaled))) == reference_half(scaled));
    ++compared;
  }
  CHECK(compared > 190000);
}

TEST_CASE("float16 rounding at its edges: ties, the largest value, subnormals, specials") {
  CHECK(half_bits(1.0f + 0x1p-11f) == 0x3c00);  // a tie rounds to the even 1.0
  CHECK(half_bits(1.0f + 0x3p-11f) == 0x3c02);  // and this one up, to even
  CHECK(half_bits(65504.0f) == 0x7bff);         // the largest float16
  CHECK(half_bits(65519.99f) == 0x7bff);        // still rounds down to it
  CHECK(half_bits(65520.0f) == 0x7c00);         // the tie with 65536 goes to infinity
  CHECK(half_bits(0x1p-24f) == 0x0001);         // the smallest subnormal
  CHECK(half_bits(0x1p-25f) == 0x0000);         // half of it ties to zero
  CHECK(half_bits(0x1.8p-25f) == 0x0001);       // more than half rounds up
  CHECK(half_bits(0x1.ff8p-15f) == 0x03ff);     // the largest subnormal
  CHECK(half_bits(0x1.ffcp-15f) == 0x0400);     // a tie rounds up into the smallest normal
  CHECK(half_bits(-0.0f) == 0x8000);
  CHECK(half_bits(-std::numeric_limits<float>::infinity()) == 0xfc00);
  CHECK(half_bits(std::numeric_limits<float>::quiet_NaN()) == 0x7e00);
  CHECK(static_cast<float>(Half::from_bits(0x0001)) == 0x1p-24f);
  CHECK(static_cast<float>(Half::from_bits(0x7bff)) == 65504.0f);
}

TEST_CASE("float32 rounds to the nearest bfloat16, ties to even, as c10 rounds it") {
  std::mt19937 random(16);
  std::uniform_int_distribution<std::uint32_t> any_bits;
  for (int i = 0; i < 200000; ++i) {
    const auto value = std::bit_cast<float>(any_bits(random));
    if (!std::isfinite(value) || std::abs(value) > 3.3e38f) continue;  // past bfloat16's largest
    CAPTURE(value);
    CHECK(static_cast<double>(static_cast<float>(BFloat16(value))) == reference_bfloat16(value));
  }
  CHECK(bfloat16_bits(1.0f + 0x1p-8f) == 0x3f80);  // a tie rounds to the even 1.0
  CHECK(bfloat16_bits(1.0f + 0x3p-8f) == 0x3f82);
  CHECK(bfloat16_bits(3.4e38f) == 0x7f80);  // past the largest: infinity
  CHECK(bfloat16_bits(std::numeric_limits<float>::quiet_NaN()) == 0x7fc0);
  CHECK(static_cast<float>(BFloat16::from_bits(0x3f80)) == 1.0f);
}
