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

constexpr double kReductionCycles = 10;  // five shuffles and five adds [estimate]

// The active threads of one SIMD group: lanes.ids[begin, end), as a mask of its lanes.
struct SimdGroup {
  const std::vector<std::uint16_t>& ids;
  std::size_t begin, end;
  std::uint32_t active;  // bit l: lane l is active
  int first;             // the thread of lane 0
  int size;              // 32, or fewer in a threadgroup's last SIMD group
};

Word combine(Builtin b, ScalarKind kind, Word x, Word y) {
  OpFault ignored = OpFault::None;  // wrapping integer adds and multiplies cannot fault
  switch (b) {
    case Builtin::SimdProduct:
      return binary_scalar(Op::Mul, kind, x, y, ignored);
    case Builtin::SimdMax:
    case Builtin::SimdMin: {
      const bool max = b == Builtin::SimdMax;
      if (is_floating(kind)) {
        const float a = word_float(x), c = word_float(y);
        return float_word(max ? std::fmax(a, c) : std::fmin(a, c));
      }
      const bool less = is_signed(kind) ? word_signed(x) < word_signed(y) : x < y;
      return (less == max) ? y : x;
    }
    default:
      return binary_scalar(Op::Add, kind, x, y, ignored);
  }
}

void reduce(const SimdGroup& g, Builtin b, ScalarKind kind, const Word* v, Word* out) {
  Word slot[kSimdWidth] = {};
  std::uint32_t has = g.active;
  for (std::size_t i = g.begin; i < g.end; ++i) slot[g.ids[i] % kSimdWidth] = v[g.ids[i]];
  for (int step = kSimdWidth / 2; step >= 1; step /= 2) {
    for (int i = 0; i < step; ++i) {
      if (!(has >> (i + step) & 1u)) continue;
      slot[i] = (has >> i & 1u) ? combine(b, kind, slot[i], slot[i + step]) : slot[i + step];
      has |= 1u << i;
    }
  }
  for (std::size_t i = g.begin; i < g.end; ++i) out[g.ids[i]] = slot[0];
}

void prefix_sum(const SimdGroup& g, bool inclusive, ScalarKind kind, const Word* v, Word* out) {
  Word sum = is_floating(kind) ? float_word(0.0f) : 0;
  for (std::size_t i = g.begin; i < g.end; ++i) {
    const std::uint16_t l = g.ids[i];
    if (!inclusive) out[l] = sum;
    sum = combine(Builtin::SimdSum, kind, sum, v[l]);
    if (inclusive) out[l] = sum;
  }
}

// simd_all, simd_any and simd_broadcast_first: one value for the whole group.
void vote(const SimdGroup& g, Builtin b, const Word* v, Word* out) {
  Word all = 1, any = 0;
  for (std::size_t i = g.begin; i < g.end; ++i) {
    all &= v[g.ids[i]];
    any |= v[g.ids[i]];
  }
  const Word result = b == Builtin::SimdAll ? all : b == Builtin::SimdAny ? any : v[g.ids[g.begin]];
  for (std::size_t i = g.begin; i < g.end; ++i) out[g.ids[i]] = result;
}

// The lane a thread reads from. The top (down) or bottom (up) lanes of the 32 keep their own
// value; a lane that a partial SIMD group lacks is inactive.
int source_lane(Builtin b, int own, int n) {
  switch (b) {
    case Builtin::SimdShuffleDown:
      return own + n < kSimdWidth ? own + n : own;
    case Builtin::SimdShuffleUp:
      return own - n >= 0 ? own - n : own;
    case Builtin::SimdShuffleXor:
      return own ^ n;
    default:
      return n;
  }
}

// simd_shuffle and its relatives, and simd_broadcast: each thread reads another lane.
void shuffle(const Expr& e, const SimdGroup& g, const Operand& lane_arg, const Word* v, Word* out) {
  const std::string name(builtin_name(e.builtin));
  for (std::size_t i = g.begin; i < g.end; ++i) {
    const std::uint16_t l = g.ids[i];
    const int source =
        source_lane(e.builtin, l % kSimdWidth, static_cast<int>(lane_arg.component(0)[l]));
    if (source >= kSimdWidth) {
      throw ThreadFault{
          e.where, l,
          name + " reads lane " + std::to_string(source) + ", but a SIMD group has 32 lanes"};
    }
    if (source >= g.size || !(g.active >> source & 1u)) {
      throw ThreadFault{
          e.where, l,
          name + " reads lane " + std::to_string(source) +
              " of its SIMD group, which is not active here: Metal leaves that value undefined"};
    }
    out[l] = v[g.first + source];
  }
}

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
  for (std::size_t begin = 0; begin < lanes.size();) {
    const int group = lanes.ids[begin] / kSimdWidth;
    std::size_t end = begin;
    std::uint32_t active = 0;
    while (end < lanes.size() && lanes.ids[end] / kSimdWidth == group)
      active |= 1u << (lanes.ids[end++] % kSimdWidth);
    const int first = group * kSimdWidth;
    const SimdGroup g{lanes.ids,
                      begin,
                      end,
                      active,
                      first,
                      static_cast<int>(std::min<std::size_t>(
                          kSimdWidth, threads_ - static_cast<std::size_t>(first)))};
    for (int c = 0; c < value.width(); ++c) {
      if (b == Builtin::SimdPrefixExclusiveSum || b == Builtin::SimdPrefixInclusiveSum) {
        prefix_sum(g, b == Builtin::SimdPrefixInclusiveSum, kind, value.component(c),
                   out.component(c));
      } else if (reduces) {
        reduce(g, b, kind, value.component(c), out.component(c));
      } else if (b == Builtin::SimdAll || b == Builtin::SimdAny ||
                 b == Builtin::SimdBroadcastFirst) {
        vote(g, b, value.component(c), out.component(c));
      } else {
        shuffle(e, g, lane_arg, value.component(c), out.component(c));
      }
    }
    begin = end;
  }
  return out;
}

}  // namespace engine::metal::detail
