#include "scalar_ops.h"

namespace engine::metal::detail {
namespace {

Word compare(Op op, bool less, bool equal, bool unordered) {
  switch (op) {
    case Op::Less:
      return !unordered && less;
    case Op::Greater:
      return !unordered && !less && !equal;
    case Op::LessEqual:
      return !unordered && (less || equal);
    case Op::GreaterEqual:
      return !unordered && !less;
    case Op::Equal:
      return !unordered && equal;
    case Op::NotEqual:
      return unordered || !equal;
    default:
      return 0;
  }
}

Word float_binary(Op op, ScalarKind kind, float a, float b) {
  switch (op) {
    case Op::Add:
      return float_result(kind, a + b);
    case Op::Sub:
      return float_result(kind, a - b);
    case Op::Mul:
      return float_result(kind, a * b);
    case Op::Div:
      return float_result(kind, a / b);
    default:
      return compare(op, a < b, a == b, std::isnan(a) || std::isnan(b));
  }
}

Word integer_binary(Op op, ScalarKind kind, Word a, Word b, OpFault& fault) {
  const bool sign = is_signed(kind);
  const int width = bit_width(kind);
  switch (op) {
    case Op::Add:
      return integer_word(kind, a + b);
    case Op::Sub:
      return integer_word(kind, a - b);
    case Op::Mul:
      return integer_word(kind, a * b);
    case Op::Div:
    case Op::Rem: {
      if (b == 0) {
        fault = OpFault::DivideByZero;
        return 0;
      }
      if (sign) {
        const std::int64_t x = word_signed(a), y = word_signed(b);
        if (x == std::numeric_limits<std::int64_t>::min() && y == -1) {
          fault = OpFault::DivideOverflow;
          return 0;
        }
        return integer_word(kind, static_cast<Word>(op == Op::Div ? x / y : x % y));
      }
      return integer_word(kind, op == Op::Div ? a / b : a % b);
    }
    case Op::BitAnd:
      return a & b;
    case Op::BitOr:
      return a | b;
    case Op::BitXor:
      return integer_word(kind, a ^ b);
    case Op::Shl:
    case Op::Shr: {
      if (b >= static_cast<Word>(width)) {  // a negative amount is a huge word here too
        fault = OpFault::ShiftTooFar;
        return 0;
      }
      if (op == Op::Shl) return integer_word(kind, a << b);
      return integer_word(kind, sign ? static_cast<Word>(word_signed(a) >> b) : a >> b);
    }
    default: {
      const bool less = sign ? word_signed(a) < word_signed(b) : a < b;
      return compare(op, less, a == b, false);
    }
  }
}

}  // namespace

Word convert_scalar(Word w, ScalarKind from, ScalarKind to, OpFault& fault) {
  if (from == to) return w;
  if (to == ScalarKind::Bool) return is_floating(from) ? word_float(w) != 0.0f : w != 0;
  if (is_floating(from)) {
    const float value = word_float(w);
    if (is_floating(to)) return float_result(to, value);
    // Toward zero; a value the integer cannot hold (or NaN) is undefined in MSL.
    const double truncated = std::trunc(static_cast<double>(value));
    const int width = bit_width(to);
    const double low = is_signed(to) ? -std::ldexp(1.0, width - 1) : 0.0;
    const double high = is_signed(to) ? std::ldexp(1.0, width - 1) : std::ldexp(1.0, width);
    if (!(truncated >= low && truncated < high)) {
      fault = OpFault::OutOfRange;
      return 0;
    }
    return is_signed(to) ? integer_word(to, static_cast<Word>(static_cast<std::int64_t>(truncated)))
                         : integer_word(to, static_cast<Word>(truncated));
  }
  if (is_floating(to)) {  // from an integer or bool: rounded to nearest even
    const float value =
        is_signed(from) ? static_cast<float>(word_signed(w)) : static_cast<float>(w);
    return float_result(to, value);
  }
  return integer_word(to, w);
}

Word binary_scalar(Op op, ScalarKind kind, Word lhs, Word rhs, OpFault& fault) {
  if (is_floating(kind)) return float_binary(op, kind, word_float(lhs), word_float(rhs));
  if (kind == ScalarKind::Bool) {
    switch (op) {
      case Op::BitAnd:
      case Op::LogicalAnd:
        return lhs & rhs;
      case Op::BitOr:
      case Op::LogicalOr:
        return lhs | rhs;
      case Op::BitXor:
        return lhs ^ rhs;
      default:
        return compare(op, lhs < rhs, lhs == rhs, false);
    }
  }
  return integer_binary(op, kind, lhs, rhs, fault);
}

Word unary_scalar(Op op, ScalarKind kind, Word operand) {
  switch (op) {
    case Op::Negate:
      return is_floating(kind) ? float_word(-word_float(operand))
                               : integer_word(kind, Word{0} - operand);
    case Op::BitNot:
      return integer_word(kind, ~operand);
    case Op::Not:
      return operand == 0;
    default:
      return operand;
  }
}

Word constant_word(ScalarKind kind, double value) {
  if (is_floating(kind)) return float_result(kind, static_cast<float>(value));
  if (kind == ScalarKind::Bool) return value != 0;
  return integer_word(kind, static_cast<Word>(static_cast<std::int64_t>(value)));
}

}  // namespace engine::metal::detail
