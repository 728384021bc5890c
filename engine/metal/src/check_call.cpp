// Calls: a helper function defined earlier in the source (arguments converted as C++ converts
// them; a reference parameter takes an lvalue of its type and address space), or one of
// Metal's standard functions, whose overloads (scalar or vector, half or float, integers where
// they apply) are resolved here by the argument types.

#include <utility>

#include "checker_state.h"

namespace engine::metal::detail {
namespace {

std::string strip_qualifiers(std::string name) {
  for (const std::string_view prefix : {"::", "metal::", "precise::", "fast::"}) {
    if (name.starts_with(prefix)) name.erase(0, prefix.size());
  }
  return name;
}

int math_arity(Builtin b) {
  switch (b) {
    case Builtin::Pow:
    case Builtin::Powr:
    case Builtin::Fmin:
    case Builtin::Fmax:
    case Builtin::Fmod:
    case Builtin::Copysign:
    case Builtin::Step:
      return 2;
    case Builtin::Fma:
    case Builtin::Mix:
      return 3;
    default:
      return 1;
  }
}

bool is_math(Builtin b) { return b >= Builtin::Exp && b <= Builtin::Mix; }
bool is_simd(Builtin b) { return b >= Builtin::SimdSum && b <= Builtin::SimdAny; }
bool is_atomic(Builtin b) { return b >= Builtin::AtomicLoad; }

}  // namespace

void Checker::call(ExprPtr& e) {
  const std::string name = strip_qualifiers(e->name);
  const auto fn = functions_.find(name);
  const auto builtin = e->name == "as_type" ? std::optional(Builtin::AsType) : find_builtin(name);
  if (fn == functions_.end() && !builtin) {
    if (is_unimplemented_msl_function(name))
      type_error(e->where, "'" + name + "' is not supported by the emulator's Metal front end");
    type_error(e->where, "use of undeclared identifier '" + name + "'");
  }
  e->name = name;
  for (ExprPtr& arg : e->operands) expr(arg);
  if (fn != functions_.end()) return helper_call(*e, *fn->second);
  builtin_call(*e, *builtin);
}

void Checker::helper_call(Expr& e, const Function& fn) {
  if (&fn == current_)
    type_error(e.where,
               "recursive calls are not allowed in Metal ('" + fn.name + "' calls itself)");
  const std::string no_match = "no matching function for call to '" + fn.name + "'";
  if (e.operands.size() != fn.params.size()) type_error(e.where, no_match);
  for (std::size_t i = 0; i < fn.params.size(); ++i) {
    const Parameter& p = fn.params[i];
    ExprPtr& arg = e.operands[i];
    if (p.is_reference) {
      const bool fits =
          arg->lvalue && same_type(*arg->type, *p.type) && arg->space == p.reference_space &&
          (p.type->is_const || (!arg->type->is_const && arg->space != AddressSpace::Constant)) &&
          arg->kind != Expr::Kind::Swizzle;
      if (!fits) type_error(e.where, no_match);
      continue;
    }
    const Type& from = *arg->type;
    const Type& to = *p.type;
    const bool fits =
        (to.is_numeric() && from.is(Type::Kind::Scalar)) || same_type(from, to) ||
        ((to.is(Type::Kind::Pointer)) &&
         (from.is(Type::Kind::Pointer) || (from.is(Type::Kind::Array) && arg->lvalue)));
    if (!fits) type_error(e.where, no_match);
    convert(arg, with_const(p.type, false), Conversion::Argument);
  }
  e.callee = &fn;
  e.type = fn.result;
}

void Checker::builtin_call(Expr& e, Builtin b) {
  e.builtin = b;
  const std::string no_match = "no matching function for call to '" + e.name + "'";
  if (is_math(b) || (b >= Builtin::Abs && b <= Builtin::Select)) return math_call(e, b);
  if (is_simd(b)) return simd_call(e, b);
  if (is_atomic(b)) return atomic_call(e, b);
  switch (b) {
    case Builtin::Dot:
    case Builtin::Length:
    case Builtin::Normalize: {
      const std::size_t arity = b == Builtin::Dot ? 2 : 1;
      if (e.operands.size() != arity) type_error(e.where, no_match);
      const Type& v = *e.operands[0]->type;
      if (!v.is_numeric() || !is_floating(v.scalar) ||
          (arity == 2 && !same_type(v, *e.operands[1]->type)) ||
          (b == Builtin::Normalize && !v.is(Type::Kind::Vector)))
        type_error(e.where, no_match);
      e.type =
          b == Builtin::Normalize ? with_const(e.operands[0]->type, false) : scalar_type(v.scalar);
      return;
    }
    case Builtin::All:
    case Builtin::Any:
      if (e.operands.size() != 1 || !e.operands[0]->type->is_numeric() ||
          e.operands[0]->type->scalar != ScalarKind::Bool)
        type_error(e.where, no_match);
      e.type = bool_type();
      return;
    case Builtin::AsType: {
      const Type& from = *e.operands[0]->type;
      if (!from.is_numeric() || byte_size(from) != byte_size(*e.written_type)) {
        type_error(e.where, "as_type cannot reinterpret '" + type_name(from) + "' as '" +
                                type_name(*e.written_type) + "': their sizes differ");
      }
      e.type = e.written_type;
      return;
    }
    case Builtin::ThreadgroupBarrier:
      if (e.operands.size() != 1 || !e.operands[0]->type->is(Type::Kind::MemFlags))
        type_error(e.where, no_match);
      e.type = void_type();
      return;
    default:
      type_error(e.where, no_match);
  }
}

// Math on half and float (integers convert to float), and abs/min/max/clamp/popcount/select,
// which keep integers.
void Checker::math_call(Expr& e, Builtin b) {
  const std::string no_match = "no matching function for call to '" + e.name + "'";
  const bool integers_allowed = b >= Builtin::Abs && b <= Builtin::Select;
  const std::size_t arity = b == Builtin::Clamp || b == Builtin::Select ? 3
                            : b == Builtin::Min || b == Builtin::Max    ? 2
                            : integers_allowed                          ? 1
                                               : static_cast<std::size_t>(math_arity(b));
  if (e.operands.size() != arity) type_error(e.where, no_match);
  const std::size_t typed = b == Builtin::Select ? 2 : arity;  // select's third is its condition
  TypeRef type = with_const(e.operands[0]->type, false);
  for (std::size_t i = 0; i < typed; ++i) {
    const Type& t = *e.operands[i]->type;
    if (!t.is_numeric() || t.scalar == ScalarKind::Bool) type_error(e.where, no_match);
    if (i > 0) {
      Expr probe;
      probe.type = type;
      type = arithmetic_type(probe, *e.operands[i], e.where);
    }
  }
  if (!integers_allowed && !is_floating(type->scalar))
    type = vector_type(ScalarKind::Float, words_of(*type));
  if (b == Builtin::Popcount && is_floating(type->scalar)) type_error(e.where, no_match);
  for (std::size_t i = 0; i < typed; ++i) explicit_convert(e.operands[i], type, e.where);
  if (b == Builtin::Select) {
    const Type& c = *e.operands[2]->type;
    if (!c.is_numeric() || c.scalar != ScalarKind::Bool ||
        (c.is(Type::Kind::Vector) && c.width != type->width))
      type_error(e.where, no_match);
    explicit_convert(e.operands[2], vector_type(ScalarKind::Bool, words_of(*type)), e.where);
  }
  const bool predicate = b == Builtin::IsNan || b == Builtin::IsInf || b == Builtin::IsFinite;
  e.type = predicate ? vector_type(ScalarKind::Bool, words_of(*type)) : type;
}

void Checker::simd_call(Expr& e, Builtin b) {
  const std::string no_match = "no matching function for call to '" + e.name + "'";
  const bool takes_lane = b >= Builtin::SimdShuffle && b <= Builtin::SimdBroadcast;
  if (e.operands.size() != (takes_lane ? 2u : 1u)) type_error(e.where, no_match);
  const Type& value = *e.operands[0]->type;
  if (b == Builtin::SimdAll || b == Builtin::SimdAny) {
    if (!value.is(Type::Kind::Scalar)) type_error(e.where, no_match);
    convert(e.operands[0], bool_type(), Conversion::Condition);
    e.type = bool_type();
    return;
  }
  const bool reduces = b <= Builtin::SimdPrefixInclusiveSum;
  if (!value.is_numeric() || (reduces && value.scalar == ScalarKind::Bool))
    type_error(e.where, no_match);
  if (takes_lane) {
    const Type& lane = *e.operands[1]->type;
    if (!lane.is(Type::Kind::Scalar) || is_floating(lane.scalar)) type_error(e.where, no_match);
    explicit_convert(e.operands[1], scalar_type(ScalarKind::UShort), e.where);
  }
  e.type = with_const(e.operands[0]->type, false);
}

void Checker::atomic_call(Expr& e, Builtin b) {
  const std::string no_match = "no matching function for call to '" + e.name + "'";
  const std::size_t arity = b == Builtin::AtomicLoad                  ? 2
                            : b == Builtin::AtomicCompareExchangeWeak ? 5
                                                                      : 3;
  if (e.operands.size() != arity) type_error(e.where, no_match);
  const Type& pointer = *e.operands[0]->type;
  if (!pointer.is(Type::Kind::Pointer) || !pointer.element->is(Type::Kind::Atomic) ||
      pointer.element->is_const ||
      (pointer.space != AddressSpace::Device && pointer.space != AddressSpace::Threadgroup))
    type_error(e.where, no_match);
  const ScalarKind kind = pointer.element->scalar;
  const bool float_allowed = b == Builtin::AtomicLoad || b == Builtin::AtomicStore ||
                             b == Builtin::AtomicExchange || b == Builtin::AtomicFetchAdd ||
                             b == Builtin::AtomicFetchSub;
  if (kind == ScalarKind::Float && !float_allowed) type_error(e.where, no_match);
  for (std::size_t i = b == Builtin::AtomicCompareExchangeWeak ? 3 : arity - 1; i < arity; ++i) {
    if (!e.operands[i]->type->is(Type::Kind::MemoryOrder)) type_error(e.where, no_match);
  }
  const TypeRef value = scalar_type(kind);
  if (b == Builtin::AtomicCompareExchangeWeak) {
    const Type& expected = *e.operands[1]->type;
    if (!expected.is(Type::Kind::Pointer) || expected.space != AddressSpace::Thread ||
        !same_type(*expected.element, *value) || expected.element->is_const)
      type_error(e.where, no_match);
    convert(e.operands[2], value, Conversion::Argument);
    e.type = bool_type();
    return;
  }
  if (b != Builtin::AtomicLoad) convert(e.operands[1], value, Conversion::Argument);
  e.type = b == Builtin::AtomicStore ? void_type() : value;
}

}  // namespace engine::metal::detail
