#pragma once
// Internal: the arithmetic of one scalar, MSL's (C++'s) rules on the words values are kept in.
// A word holds a bool as 0 or 1, a signed integer sign-extended to 64 bits, an unsigned one
// zero-extended, a half or a float as the 32 bits of the float it equals. Integers wrap at
// their width; half arithmetic is done in float and rounded to half (half.h). What MSL leaves
// undefined (an integer divided by zero, a shift by the width or more, a float converted to an
// integer that cannot hold it) is reported as an OpFault instead of computed.

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "ast.h"
#include "engine/metal/half.h"

namespace engine::metal::detail {

using Word = std::uint64_t;

enum class OpFault : std::uint8_t { None, DivideByZero, DivideOverflow, ShiftTooFar, OutOfRange };

inline float word_float(Word w) { return std::bit_cast<float>(static_cast<std::uint32_t>(w)); }
inline Word float_word(float f) { return std::bit_cast<std::uint32_t>(f); }
inline std::int64_t word_signed(Word w) { return static_cast<std::int64_t>(w); }

inline int bit_width(ScalarKind kind) { return static_cast<int>(scalar_size(kind)) * 8; }

// The canonical word of an integer `bits` truncated to `kind`'s width.
inline Word integer_word(ScalarKind kind, Word bits) {
  const int width = bit_width(kind);
  if (kind == ScalarKind::Bool) return bits != 0;
  if (width == 64) return bits;
  const Word mask = (Word{1} << width) - 1;
  bits &= mask;
  if (is_signed(kind) && (bits >> (width - 1)) != 0) bits |= ~mask;  // sign-extend
  return bits;
}

// The result of arithmetic on `kind`, rounded or wrapped to it.
inline Word float_result(ScalarKind kind, float value) {
  return float_word(kind == ScalarKind::Half ? round_to_half(value) : value);
}

// `w`, a value of `from`, as a value of `to` (static_cast's rules: toward zero into integers,
// to nearest even into floating point; bool from nonzero).
Word convert_scalar(Word w, ScalarKind from, ScalarKind to, OpFault& fault);

// lhs op rhs, both of `kind` (comparisons give a bool word).
Word binary_scalar(Op op, ScalarKind kind, Word lhs, Word rhs, OpFault& fault);

// op operand: Negate, Plus, BitNot on `kind`; Not on bool.
Word unary_scalar(Op op, ScalarKind kind, Word operand);

// The word of a constant of `kind` from a double (enumerations, M_PI_F and friends).
Word constant_word(ScalarKind kind, double value);

}  // namespace engine::metal::detail
