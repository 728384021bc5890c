// Metal's standard functions other than the SIMD-group functions and atomics: math on half and
// float (msl_math.h), abs, min, max, clamp and popcount on integers too, select, the geometric
// functions, all and any, and as_type.

#include <bit>
#include <cstring>
#include <vector>

#include "executor.h"
#include "msl_math.h"

namespace engine::metal::detail {
namespace {

double cycles_of(Builtin b) {
  switch (b) {
    case Builtin::Exp:
    case Builtin::Exp2:
    case Builtin::Exp10:
    case Builtin::Log:
    case Builtin::Log2:
    case Builtin::Log10:
      return static_cast<double>(Cost::Transcendental) + 1;  // EXP2 or LOG2, and a scaling FMUL
    case Builtin::Sqrt:
    case Builtin::Rsqrt:
      return static_cast<double>(Cost::Root);
    case Builtin::Sin:
    case Builtin::Cos:
      return static_cast<double>(Cost::Sine);
    case Builtin::Tan:
      return 2 * static_cast<double>(Cost::Sine) + static_cast<double>(Cost::Reciprocal);
    case Builtin::Tanh:
    case Builtin::Sinh:
    case Builtin::Cosh:  // an exponential, a reciprocal and a few adds
      return static_cast<double>(Cost::Transcendental) + static_cast<double>(Cost::Reciprocal) + 3;
    case Builtin::Pow:
    case Builtin::Powr:
      return 2 * static_cast<double>(Cost::Transcendental) + 2;
    case Builtin::Popcount:
      return static_cast<double>(Cost::Multiply);  // POPCOUNT32 issues every four cycles
    case Builtin::Fmod:
      return static_cast<double>(Cost::Reciprocal) + 4;
    default:
      return static_cast<double>(Cost::Simple);
  }
}

Word integer_function(Builtin b, ScalarKind kind, const Word* args) {
  const bool sign = is_signed(kind);
  const auto less = [&](Word x, Word y) { return sign ? word_signed(x) < word_signed(y) : x < y; };
  switch (b) {
    case Builtin::Abs:
      return sign && word_signed(args[0]) < 0 ? integer_word(kind, Word{0} - args[0]) : args[0];
    case Builtin::Min:
      return less(args[1], args[0]) ? args[1] : args[0];
    case Builtin::Max:
      return less(args[0], args[1]) ? args[1] : args[0];
    case Builtin::Clamp: {
      const Word low = less(args[0], args[1]) ? args[1] : args[0];
      return less(args[2], low) ? args[2] : low;
    }
    case Builtin::Popcount: {
      const int width = bit_width(kind);
      const Word bits = width == 64 ? args[0] : args[0] & ((Word{1} << width) - 1);
      return static_cast<Word>(std::popcount(bits));
    }
    default:
      return 0;
  }
}

Word float_function(Builtin b, ScalarKind kind, const Word* args, std::size_t count) {
  const float x = word_float(args[0]);
  float r = 0;
  if (count == 1) {
    r = msl_unary(b, x);
    if (b == Builtin::IsNan || b == Builtin::IsInf || b == Builtin::IsFinite) return r != 0;
  } else if (count == 2) {
    r = msl_binary(b, x, word_float(args[1]));
  } else {
    r = msl_ternary(b, x, word_float(args[1]), word_float(args[2]));
  }
  return float_result(kind, r);
}

// One component of a per-component function's result.
Word per_component(Builtin b, ScalarKind kind, const Word* values, std::size_t count) {
  if (b == Builtin::Select) return values[2] ? values[1] : values[0];
  return is_floating(kind) ? float_function(b, kind, values, count)
                           : integer_function(b, kind, values);
}

// all, any, dot and length: one value from the components of a thread's vectors. A dot
// product adds x0 y0 + x1 y1 + ... left to right, every step rounded.
Word across(Builtin b, ScalarKind kind, const std::vector<Operand>& args, std::uint16_t l) {
  float sum = 0;
  Word flag = b == Builtin::All;
  for (int c = 0; c < args[0].width(); ++c) {
    const Word x = args[0].component(c)[l];
    if (b == Builtin::All) flag &= x;
    if (b == Builtin::Any) flag |= x;
    const float y = word_float(args[b == Builtin::Dot ? 1 : 0].component(c)[l]);
    sum = word_float(float_result(kind, sum + word_float(float_result(kind, word_float(x) * y))));
  }
  if (b == Builtin::All || b == Builtin::Any) return flag;
  return b == Builtin::Dot ? float_word(sum) : float_result(kind, std::sqrt(sum));
}

// rsqrt(dot(v, v)) for normalize, which MSL defines as v * rsqrt(dot(v, v)).
float inverse_length(ScalarKind kind, const Operand& v, std::uint16_t l) {
  float squares = 0;
  for (int c = 0; c < v.width(); ++c) {
    const float x = word_float(v.component(c)[l]);
    squares = word_float(float_result(kind, squares + word_float(float_result(kind, x * x))));
  }
  return word_float(float_result(kind, msl_unary(Builtin::Rsqrt, squares)));
}

}  // namespace

Operand Executor::builtin(const Expr& e, const Lanes& lanes) {
  switch (e.builtin) {
    case Builtin::ThreadgroupBarrier:
      barrier(e, lanes);
      return {};
    case Builtin::AsType: {
      const Type& from = *e.operands[0]->type;
      const Type& to = *e.type;
      const Operand in = eval(*e.operands[0], lanes);
      Operand out(registers_, words_of(to));
      std::vector<std::byte> bytes(std::max(byte_size(from), byte_size(to)));
      for (const std::uint16_t l : lanes.ids) {
        for (int c = 0; c < in.width(); ++c)
          write_scalar(bytes.data() + c * scalar_size(from.scalar), from.scalar,
                       in.component(c)[l]);
        for (int c = 0; c < out.width(); ++c)
          out.component(c)[l] = read_scalar(bytes.data() + c * scalar_size(to.scalar), to.scalar);
      }
      return out;
    }
    default:
      break;
  }
  if (e.builtin >= Builtin::SimdSum && e.builtin <= Builtin::SimdAny) return simd(e, lanes);
  if (e.builtin >= Builtin::AtomicLoad) return atomic(e, lanes);
  return math(e, lanes);
}

Operand Executor::math(const Expr& e, const Lanes& lanes) {
  std::vector<Operand> args;
  for (const auto& operand : e.operands) args.push_back(eval(*operand, lanes));
  const ScalarKind kind = e.operands[0]->type->scalar;
  const int width = args[0].width();
  const Builtin b = e.builtin;
  counter_.alu(cycles_of(b) * width, lanes.simd_groups);
  if (b == Builtin::All || b == Builtin::Any || b == Builtin::Dot || b == Builtin::Length) {
    Operand out(registers_, 1);
    for (const std::uint16_t l : lanes.ids) out.component(0)[l] = across(b, kind, args, l);
    return out;
  }
  Operand out(registers_, width);
  Word values[3] = {0, 0, 0};
  for (const std::uint16_t l : lanes.ids) {
    const float scale = b == Builtin::Normalize ? inverse_length(kind, args[0], l) : 0;
    for (int c = 0; c < width; ++c) {
      for (std::size_t a = 0; a < args.size(); ++a)
        values[a] = args[a].component(args[a].width() == 1 ? 0 : c)[l];
      out.component(c)[l] = b == Builtin::Normalize
                                ? float_result(kind, word_float(values[0]) * scale)
                                : per_component(b, kind, values, args.size());
    }
  }
  return out;
}

}  // namespace engine::metal::detail
