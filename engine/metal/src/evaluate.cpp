// Expressions, each evaluated once for all the active threads (Note [Lockstep threadgroups]).
// Operators whose right side runs for some threads only (&&, ||, ?:) evaluate it for exactly
// those threads, so a guard such as `i < n && in[i] > 0` protects the access as it does on a
// GPU.

#include <utility>

#include "executor.h"

namespace engine::metal::detail {
namespace {

double arithmetic_cycles(Op op, ScalarKind kind) {
  const double wide = scalar_size(kind) == 8 ? 4 : 1;  // 64-bit integers take four (IADD64)
  if (is_floating(kind))
    return op == Op::Div ? static_cast<double>(Cost::Reciprocal) + 1
                         : static_cast<double>(Cost::Simple);
  if (op == Op::Mul) return wide * static_cast<double>(Cost::Multiply);
  if (op == Op::Div || op == Op::Rem)  // [estimate] no divider: a reciprocal and a correction
    return wide *
           (static_cast<double>(Cost::Convert) * 2 + static_cast<double>(Cost::Reciprocal) + 4);
  return wide * static_cast<double>(Cost::Simple);
}

// The operations kernels do most, float and 32-bit integer arithmetic that cannot fault, in
// loops of their own: the same results as binary_scalar, without its dispatch per thread.
bool fast_arithmetic(Op op, ScalarKind kind, const Word* x, const Word* y, Word* z,
                     const Lanes& lanes) {
  const auto each = [&](auto f) {
    for (const std::uint16_t l : lanes.ids) z[l] = f(x[l], y[l]);
    return true;
  };
  if (kind == ScalarKind::Float) {
    switch (op) {
      case Op::Add:
        return each([](Word a, Word b) { return float_word(word_float(a) + word_float(b)); });
      case Op::Sub:
        return each([](Word a, Word b) { return float_word(word_float(a) - word_float(b)); });
      case Op::Mul:
        return each([](Word a, Word b) { return float_word(word_float(a) * word_float(b)); });
      case Op::Div:
        return each([](Word a, Word b) { return float_word(word_float(a) / word_float(b)); });
      default:
        return false;
    }
  }
  if (kind == ScalarKind::UInt || kind == ScalarKind::Int) {
    const auto wrap = [kind](Word w) { return integer_word(kind, w); };
    switch (op) {
      case Op::Add:
        return each([&](Word a, Word b) { return wrap(a + b); });
      case Op::Sub:
        return each([&](Word a, Word b) { return wrap(a - b); });
      case Op::Mul:
        return each([&](Word a, Word b) { return wrap(a * b); });
      default:
        return false;
    }
  }
  return false;
}

Lanes split(const Lanes& lanes, const Word* condition, bool keep) {
  Lanes out;
  for (const std::uint16_t l : lanes.ids) {
    if ((condition[l] != 0) == keep) out.ids.push_back(l);
  }
  out.recount();
  return out;
}

}  // namespace

Operand Executor::eval(const Expr& e, const Lanes& lanes) {
  switch (e.kind) {
    case Expr::Kind::Literal:
      return fill({e.literal}, lanes);
    case Expr::Kind::Variable: {
      const Variable& v = *e.variable;
      if (v.is_constexpr) return fill(v.value, lanes);
      if (v.storage == Variable::Storage::Thread && !v.is_reference)  // a view of its words
        return Operand(Value{memory_.thread_column(v.address), words_of(*v.type), threads_});
      return load(place(e, lanes), lanes, e.where);
    }
    case Expr::Kind::Convert:
      return convert(e, lanes);
    case Expr::Kind::Unary:
      return unary(e, lanes);
    case Expr::Kind::Binary:
      return e.op == Op::LogicalAnd || e.op == Op::LogicalOr ? logical(e, lanes) : binary(e, lanes);
    case Expr::Kind::Conditional:
      return conditional(e, lanes);
    case Expr::Kind::Assign:
      return assign(e, lanes);
    case Expr::Kind::Increment:
      return increment(e, lanes);
    case Expr::Kind::Call:
      return e.callee ? call(e, lanes) : builtin(e, lanes);
    case Expr::Kind::Construct:
      return construct(e, lanes);
    case Expr::Kind::Subscript:
    case Expr::Kind::Swizzle:
      if (!e.lvalue) return component_of(e, lanes);
      return load(place(e, lanes), lanes, e.where);
    case Expr::Kind::Deref:
      return load(place(e, lanes), lanes, e.where);
    case Expr::Kind::AddressOf: {
      Place target = place(*e.operands[0], lanes);
      return pointers_of(target, lanes);
    }
    default:
      throw ThreadFault{e.where, lanes.ids.front(), "internal error: an unchecked expression"};
  }
}

Operand Executor::fill(const std::vector<Word>& words, const Lanes& lanes) {
  Operand out(registers_, static_cast<int>(words.size()));
  for (std::size_t c = 0; c < words.size(); ++c) {
    Word* column = out.component(static_cast<int>(c));
    for (const std::uint16_t l : lanes.ids) column[l] = words[c];
  }
  return out;
}

Operand Executor::convert(const Expr& e, const Lanes& lanes) {
  const Type& from = *e.operands[0]->type;
  const Type& to = *e.type;
  const Operand in = eval(*e.operands[0], lanes);
  Operand out(registers_, words_of(to));
  if (from.is(Type::Kind::Pointer)) {  // a pointer as a condition: is it null?
    for (const std::uint16_t l : lanes.ids)
      out.component(0)[l] = decode(in.component(0)[l]).tag != PointerTag::Null;
    return out;
  }
  const bool crosses = is_floating(from.scalar) != is_floating(to.scalar);
  counter_.alu(static_cast<double>(crosses ? Cost::Convert : Cost::Simple) * out.width(),
               lanes.simd_groups);
  for (int c = 0; c < out.width(); ++c) {
    const Word* src = in.component(in.width() == 1 ? 0 : c);
    Word* dst = out.component(c);
    for (const std::uint16_t l : lanes.ids) {
      OpFault fault = OpFault::None;
      dst[l] = convert_scalar(src[l], from.scalar, to.scalar, fault);
      if (fault != OpFault::None) {
        throw ThreadFault{e.where, l,
                          "the value " + std::to_string(word_float(src[l])) + " does not fit in '" +
                              std::string(scalar_name(to.scalar)) +
                              "': converting it is undefined in Metal"};
      }
    }
  }
  return out;
}

Operand Executor::unary(const Expr& e, const Lanes& lanes) {
  const Operand in = eval(*e.operands[0], lanes);
  const ScalarKind kind = e.operands[0]->type->scalar;
  Operand out(registers_, in.width());
  counter_.alu(static_cast<double>(Cost::Simple) * in.width(), lanes.simd_groups);
  for (int c = 0; c < in.width(); ++c) {
    for (const std::uint16_t l : lanes.ids)
      out.component(c)[l] = unary_scalar(e.op, kind, in.component(c)[l]);
  }
  return out;
}

void Executor::op_fault(OpFault fault, Location where, std::uint16_t lane, const Type& type) {
  std::string message;
  switch (fault) {
    case OpFault::DivideByZero:
      message = "integer division by zero (undefined in Metal)";
      break;
    case OpFault::DivideOverflow:
      message = "integer division overflows '" + type_name(type) + "' (undefined in Metal)";
      break;
    case OpFault::ShiftTooFar:
      message = "shift by the width of '" + type_name(type) +
                "' or more, or by a negative amount (undefined in Metal)";
      break;
    default:
      message = "a value out of the range of '" + type_name(type) + "'";
  }
  throw ThreadFault{where, lane, message};
}

Operand Executor::arithmetic(Op op, const Type& type, const Operand& a, const Operand& b,
                             const Lanes& lanes, Location where) {
  const ScalarKind kind = type.scalar;
  Operand out(registers_, a.width());
  counter_.alu(arithmetic_cycles(op, kind) * a.width(), lanes.simd_groups);
  for (int c = 0; c < a.width(); ++c) {
    const Word* x = a.component(c);
    const Word* y = b.component(c);
    Word* z = out.component(c);
    if (fast_arithmetic(op, kind, x, y, z, lanes)) continue;
    for (const std::uint16_t l : lanes.ids) {
      OpFault fault = OpFault::None;
      z[l] = binary_scalar(op, kind, x[l], y[l], fault);
      if (fault != OpFault::None) op_fault(fault, where, l, type);
    }
  }
  return out;
}

Operand Executor::binary(const Expr& e, const Lanes& lanes) {
  const Operand a = eval(*e.operands[0], lanes);
  const Operand b = eval(*e.operands[1], lanes);
  const Type& type = *e.operands[0]->type;
  if (!type.is(Type::Kind::Pointer)) return arithmetic(e.op, type, a, b, lanes, e.where);
  Operand out(registers_, 1);
  const std::int64_t stride = element_stride(*type.element, type.space);
  counter_.alu(static_cast<double>(Cost::Simple), lanes.simd_groups);
  for (const std::uint16_t l : lanes.ids) {
    Pointer p = decode(a.component(0)[l]);
    const Word w = b.component(0)[l];
    if (!e.operands[1]->type->is(Type::Kind::Pointer)) {  // p + n, p - n
      p.offset += (e.op == Op::Sub ? -1 : 1) * word_signed(w) * stride;
      out.component(0)[l] = encode(p);
    } else if (e.op == Op::Sub) {
      out.component(0)[l] = static_cast<Word>((p.offset - decode(w).offset) / stride);
    } else if (e.op == Op::Equal || e.op == Op::NotEqual) {
      out.component(0)[l] = (a.component(0)[l] == w) == (e.op == Op::Equal);
    } else {  // <, >, <=, >= of two pointers into one object: their offsets
      OpFault never = OpFault::None;
      out.component(0)[l] = binary_scalar(e.op, ScalarKind::Long, static_cast<Word>(p.offset),
                                          static_cast<Word>(decode(w).offset), never);
    }
  }
  return out;
}

Operand Executor::logical(const Expr& e, const Lanes& lanes) {
  const bool is_and = e.op == Op::LogicalAnd;
  Operand out(registers_, 1);
  const Operand lhs = eval(*e.operands[0], lanes);
  for (const std::uint16_t l : lanes.ids) out.component(0)[l] = lhs.component(0)[l];
  const Lanes rest = split(lanes, lhs.component(0), is_and);  // where the right side decides
  if (!rest.empty()) {
    const Operand rhs = eval(*e.operands[1], rest);
    for (const std::uint16_t l : rest.ids) out.component(0)[l] = rhs.component(0)[l];
  }
  return out;
}

Operand Executor::conditional(const Expr& e, const Lanes& lanes) {
  const Operand condition = eval(*e.operands[0], lanes);
  Operand out(registers_, words_of(*e.type));
  for (const bool side : {true, false}) {
    const Lanes taken = split(lanes, condition.component(0), side);
    if (taken.empty()) continue;
    const Operand value = eval(*e.operands[side ? 1 : 2], taken);
    for (int c = 0; c < out.width(); ++c) {
      for (const std::uint16_t l : taken.ids) out.component(c)[l] = value.component(c)[l];
    }
  }
  return out;
}

Operand Executor::construct(const Expr& e, const Lanes& lanes) {
  Operand out(registers_, words_of(*e.type));
  int next = 0;
  for (const auto& operand : e.operands) {
    const Operand part = eval(*operand, lanes);
    for (int c = 0; c < part.width(); ++c, ++next) {
      for (const std::uint16_t l : lanes.ids) out.component(next)[l] = part.component(c)[l];
    }
  }
  return out;
}

}  // namespace engine::metal::detail
