// SIMD-group functions (MSL specification, section 6.9.2) over the active threads of each
// 32-wide SIMD group. Reductions combine in a fixed tree (lanes i and i + 16, then i + 8, ...:
// the butterfly of shuffles such a reduction compiles to) and prefix sums in lane order, so
// their rounding is the same on every host. A shuffle that reads an inactive lane, whose value
// Metal leaves undefined, is a fault.

#include <cmath>
#include <string>

#include "executor.h"

namespace engine::metal::detail {
namespace {

Word combine(Builtin b, ScalarKind kind, Word x, Word y) {
  OpFault ignored = OpFault::None;  // wrapping integer adds and multiplies cannot fault
  switch (b) {
    case Builtin::SimdProduct:
      return binary_scalar(Op::Mul, kind, x, y, ignored);
    case Builtin::SimdMax:
    case Builtin::SimdMin: {
      const bool max = b == Builtin::SimdMax;
      if (is_floating(kind))
        return float_word(max ? std::fmax(word_float(x), word_float(y))
                              : std::fmin(word_float(x), word_float(y)));
      const bool less = is_signed(kind) ? word_signed(x) < word_signed(y) : x < y;
      return (less == max) ? y : x;
    }
    default:
      return binary_scalar(Op::Add, kind, x, y, ignored);
  }
}

constexpr double kReductionCycles = 10;  // five shuffles and five adds [estimate]

}  // namespace

Operand Executor::simd(const Expr& e, const Lanes& lanes) {
  const Builtin b = e.builtin;
  const Operand value = eval(*e.operands[0], lanes);
  const Operand lane_arg = e.operands.size() > 1 ? eval(*e.operands[1], lanes) : Operand();
  const ScalarKind kind = e.operands[0]->type->scalar;
  const bool reduces = b <= Builtin::SimdPrefixInclusiveSum;
  counter_.alu((reduces ? kReductionCycles : static_cast<double>(Cost::Simple)) * value.width(),
               lanes.simd_groups);
  Operand out(registers_, value.width());
  const std::string name(builtin_name(b));
  for (std::size_t begin = 0; begin < lanes.size();) {
    const int group = lanes.ids[begin] / kSimdWidth;
    std::size_t end = begin;
    std::uint32_t active = 0;
    while (end < lanes.size() && lanes.ids[end] / kSimdWidth == group)
      active |= 1u << (lanes.ids[end++] % kSimdWidth);
    const int first = group * kSimdWidth;
    const int group_size = static_cast<int>(
        std::min<std::size_t>(kSimdWidth, threads_ - static_cast<std::size_t>(first)));
    for (int c = 0; c < value.width(); ++c) {
      const Word* v = value.component(c);
      Word* o = out.component(c);
      if (b == Builtin::SimdPrefixExclusiveSum || b == Builtin::SimdPrefixInclusiveSum) {
        Word sum = is_floating(kind) ? float_word(0.0f) : 0;
        for (std::size_t i = begin; i < end; ++i) {
          const std::uint16_t l = lanes.ids[i];
          if (b == Builtin::SimdPrefixExclusiveSum) o[l] = sum;
          sum = combine(Builtin::SimdSum, kind, sum, v[l]);
          if (b == Builtin::SimdPrefixInclusiveSum) o[l] = sum;
        }
      } else if (reduces) {
        Word slot[kSimdWidth] = {};
        std::uint32_t has = active;
        for (std::size_t i = begin; i < end; ++i) slot[lanes.ids[i] % kSimdWidth] = v[lanes.ids[i]];
        for (int step = kSimdWidth / 2; step >= 1; step /= 2) {
          for (int i = 0; i < step; ++i) {
            if (!(has >> (i + step) & 1u)) continue;
            slot[i] = (has >> i & 1u) ? combine(b, kind, slot[i], slot[i + step]) : slot[i + step];
            has |= 1u << i;
          }
        }
        for (std::size_t i = begin; i < end; ++i) o[lanes.ids[i]] = slot[0];
      } else if (b == Builtin::SimdAll || b == Builtin::SimdAny ||
                 b == Builtin::SimdBroadcastFirst) {
        Word all = 1, any = 0;
        for (std::size_t i = begin; i < end; ++i) {
          all &= v[lanes.ids[i]];
          any |= v[lanes.ids[i]];
        }
        const Word result = b == Builtin::SimdAll   ? all
                            : b == Builtin::SimdAny ? any
                                                    : v[lanes.ids[begin]];
        for (std::size_t i = begin; i < end; ++i) o[lanes.ids[i]] = result;
      } else {  // shuffles and broadcast: each thread reads another lane of its SIMD group
        for (std::size_t i = begin; i < end; ++i) {
          const std::uint16_t l = lanes.ids[i];
          const int own = l % kSimdWidth;
          const auto n = static_cast<int>(lane_arg.component(0)[l]);
          int source = n;
          // The top (down) or bottom (up) lanes of the 32 keep their own value; a lane a partial
          // SIMD group does not have is inactive.
          if (b == Builtin::SimdShuffleDown) source = own + n < kSimdWidth ? own + n : own;
          if (b == Builtin::SimdShuffleUp) source = own - n >= 0 ? own - n : own;
          if (b == Builtin::SimdShuffleXor) source = own ^ n;
          if (source >= kSimdWidth) {
            throw ThreadFault{
                e.where, l,
                name + " reads lane " + std::to_string(source) + ", but a SIMD group has 32 lanes"};
          }
          if (source >= group_size || !(active >> source & 1u)) {
            throw ThreadFault{
                e.where, l,
                name + " reads lane " + std::to_string(source) +
                    " of its SIMD group, which is not active here: Metal leaves that value undefined"};
          }
          o[l] = v[first + source];
        }
      }
    }
    begin = end;
  }
  return out;
}

}  // namespace engine::metal::detail
