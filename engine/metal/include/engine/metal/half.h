#pragma once
// IEEE 754 binary16, MSL's half (and c10::Half). A half value is kept as the float it equals;
// arithmetic on halves is done in float and rounded to half after every operation, which gives
// the correctly rounded half result for +, -, *, / and sqrt (float has more than twice half's
// 11 significant bits, plus two, so rounding twice cannot differ from rounding once).

#include <cstdint>

namespace engine::metal {

// The nearest half to `value` (ties to even), as a float; overflow gives infinity.
float round_to_half(float value);
std::uint16_t half_bits(float value);      // rounds, then encodes
float half_from_bits(std::uint16_t bits);  // exact

}  // namespace engine::metal
