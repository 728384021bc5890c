// Assignments and increments (a place is read, computed on and written back for every active
// thread), and the components of a vector value that is not in memory.

#include "executor.h"

namespace engine::metal::detail {
namespace {

// `in` (of `from`) as `to`, component by component; a conversion out of range faults.
Operand convert_operand(RegisterPool& registers, const Operand& in, const Type& from,
                        const Type& to, const Lanes& lanes, Location where) {
  Operand out(registers, in.width());
  for (int c = 0; c < in.width(); ++c) {
    for (const std::uint16_t l : lanes.ids) {
      OpFault fault = OpFault::None;
      out.component(c)[l] = convert_scalar(in.component(c)[l], from.scalar, to.scalar, fault);
      if (fault != OpFault::None)
        throw ThreadFault{where, l, "the result does not fit in '" + type_name(to) + "'"};
    }
  }
  return out;
}

Operand copy(RegisterPool& registers, const Operand& in, const Lanes& lanes) {
  Operand out(registers, in.width());
  for (int c = 0; c < in.width(); ++c) {
    for (const std::uint16_t l : lanes.ids) out.component(c)[l] = in.component(c)[l];
  }
  return out;
}

}  // namespace

Operand Executor::assign(const Expr& e, const Lanes& lanes) {
  Operand value = eval(*e.operands[1], lanes);  // C++17: the right side first
  const Place target = place(*e.operands[0], lanes);
  const Location at = e.operands[0]->where;  // a fault points at what is assigned to
  if (e.op == Op::None) {
    store(target, value, lanes, at);
    return value;
  }
  const Type& type = *e.type;
  const Operand current = load(target, lanes, at);
  Operand result;
  if (type.is(Type::Kind::Pointer)) {
    result = Operand(registers_, 1);
    const std::int64_t stride = element_stride(*type.element, type.space);
    for (const std::uint16_t l : lanes.ids) {
      Pointer p = decode(current.component(0)[l]);
      p.offset += (e.op == Op::Sub ? -1 : 1) * word_signed(value.component(0)[l]) * stride;
      result.component(0)[l] = encode(p);
    }
  } else {
    const Type& operation = *e.written_type;
    const Operand widened = convert_operand(registers_, current, type, operation, lanes, e.where);
    const Operand computed = arithmetic(e.op, operation, widened, value, lanes, e.where);
    result = convert_operand(registers_, computed, operation, type, lanes, e.where);
  }
  store(target, result, lanes, at);
  return result;
}

Operand Executor::increment(const Expr& e, const Lanes& lanes) {
  const Place target = place(*e.operands[0], lanes);
  const Location at = e.operands[0]->where;
  Operand old = copy(registers_, load(target, lanes, at), lanes);
  const Type& type = *e.type;
  Operand updated(registers_, old.width());
  const int step = e.increment ? 1 : -1;
  counter_.alu(static_cast<double>(Cost::Simple) * old.width(), lanes.simd_groups);
  for (int c = 0; c < old.width(); ++c) {
    for (const std::uint16_t l : lanes.ids) {
      const Word w = old.component(c)[l];
      Word next;
      if (type.is(Type::Kind::Pointer)) {
        Pointer p = decode(w);
        p.offset += step * element_stride(*type.element, type.space);
        next = encode(p);
      } else if (is_floating(type.scalar)) {
        next = float_result(type.scalar, word_float(w) + static_cast<float>(step));
      } else {
        next = integer_word(type.scalar, w + static_cast<Word>(static_cast<std::int64_t>(step)));
      }
      updated.component(c)[l] = next;
    }
  }
  store(target, updated, lanes, at);
  return e.prefix ? std::move(updated) : std::move(old);
}

Operand Executor::component_of(const Expr& e, const Lanes& lanes) {
  const Operand base = eval(*e.operands[0], lanes);
  if (e.kind == Expr::Kind::Swizzle) {
    Operand out(registers_, e.swizzle_count);
    for (int c = 0; c < e.swizzle_count; ++c) {
      for (const std::uint16_t l : lanes.ids)
        out.component(c)[l] = base.component(e.swizzle[static_cast<std::size_t>(c)])[l];
    }
    return out;
  }
  const Operand index = eval(*e.operands[1], lanes);
  const bool sign = is_signed(e.operands[1]->type->scalar);
  Operand out(registers_, 1);
  for (const std::uint16_t l : lanes.ids) {
    const Word i = index.component(0)[l];
    if ((sign && word_signed(i) < 0) || i >= static_cast<Word>(base.width())) {
      throw ThreadFault{e.where, l,
                        "index " +
                            std::to_string(sign ? word_signed(i) : static_cast<std::int64_t>(i)) +
                            " is out of bounds of a '" + type_name(*e.operands[0]->type) + "'"};
    }
    out.component(0)[l] = base.component(static_cast<int>(i))[l];
  }
  return out;
}

}  // namespace engine::metal::detail
