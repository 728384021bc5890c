// Implicit and explicit conversions (MSL specification, section 2.13: scalars convert to
// scalars and splat into vectors; a vector never converts implicitly to another vector type),
// C++'s usual arithmetic conversions, and the folding of constant expressions, which uses the
// executor's own scalar arithmetic (scalar_ops.h).

#include <utility>

#include "checker_state.h"

namespace engine::metal::detail {
namespace {

int rank(ScalarKind kind) { return kind == ScalarKind::Long || kind == ScalarKind::ULong ? 2 : 1; }

ScalarKind promote(ScalarKind kind) {
  switch (kind) {
    case ScalarKind::Bool:
    case ScalarKind::Char:
    case ScalarKind::UChar:
    case ScalarKind::Short:
    case ScalarKind::UShort:
      return ScalarKind::Int;
    default:
      return kind;
  }
}

// C++'s usual arithmetic conversions ([expr.arith.conv]) on two scalar kinds.
ScalarKind common_kind(ScalarKind a, ScalarKind b) {
  if (a == ScalarKind::Float || b == ScalarKind::Float) return ScalarKind::Float;
  if (a == ScalarKind::Half || b == ScalarKind::Half) return ScalarKind::Half;
  a = promote(a);
  b = promote(b);
  if (a == b) return a;
  if (is_signed(a) == is_signed(b)) return rank(a) >= rank(b) ? a : b;
  const ScalarKind u = is_signed(a) ? b : a;
  const ScalarKind s = is_signed(a) ? a : b;
  return rank(u) >= rank(s) ? u : s;
}

std::string value_category(const Expr& e) { return e.lvalue ? "an lvalue" : "an rvalue"; }

bool pointer_assignable(const Type& from, const Type& to) {
  return from.space == to.space && same_type(*from.element, *to.element) &&
         (to.element->is_const || !from.element->is_const);
}

}  // namespace

void Checker::wrap_convert(ExprPtr& e, const TypeRef& to) {
  auto node = std::make_unique<Expr>();
  node->kind = Expr::Kind::Convert;
  node->where = e->where;
  node->type = to;
  node->operands.push_back(std::move(e));
  e = std::move(node);
}

void Checker::convert(ExprPtr& e, const TypeRef& to, Conversion context) {
  const Type& from = *e->type;
  if (same_type(from, *to)) return;
  const bool scalar_from = from.is(Type::Kind::Scalar);
  if ((to->is(Type::Kind::Scalar) || to->is(Type::Kind::Vector)) && scalar_from) {
    wrap_convert(e, to);
    return;
  }
  if (to->is(Type::Kind::Scalar) && to->scalar == ScalarKind::Bool &&
      from.is(Type::Kind::Pointer) && context == Conversion::Condition) {
    wrap_convert(e, to);
    return;
  }
  if (to->is(Type::Kind::Pointer) && from.is(Type::Kind::Pointer) &&
      pointer_assignable(from, *to)) {
    e->type = to;
    return;
  }
  if (to->is(Type::Kind::Pointer) && from.is(Type::Kind::Array) && e->lvalue &&
      e->space == to->space && same_type(*from.element, *to->element) &&
      (to->element->is_const || !from.element->is_const)) {
    auto decay = std::make_unique<Expr>();
    decay->kind = Expr::Kind::AddressOf;
    decay->where = e->where;
    decay->type = to;
    decay->operands.push_back(std::move(e));
    e = std::move(decay);
    return;
  }
  const std::string to_name = "'" + type_name(*to) + "'";
  const std::string from_name = "'" + type_name(from) + "'";
  switch (context) {
    case Conversion::Initialize:
      type_error(e->where, "cannot initialize a variable of type " + to_name + " with " +
                               value_category(*e) + " of type " + from_name);
    case Conversion::Assign:
      type_error(e->where, "assigning to " + to_name + " from incompatible type " + from_name);
    case Conversion::Return:
      type_error(e->where, "cannot initialize return object of type " + to_name + " with " +
                               value_category(*e) + " of type " + from_name);
    case Conversion::Condition:
      type_error(e->where,
                 "value of type " + from_name + " is not contextually convertible to 'bool'");
    case Conversion::Argument:
      break;
  }
  type_error(e->where, "no viable conversion from " + from_name + " to " + to_name);
}

void Checker::explicit_convert(ExprPtr& e, const TypeRef& to, Location where) {
  const Type& from = *e->type;
  // A scalar converts to a scalar or splats into a vector; a vector converts per component to a
  // vector of its width.
  const bool numeric = from.is_numeric() && to->is_numeric();
  const bool shapes_fit =
      from.is(Type::Kind::Scalar) || (to->is(Type::Kind::Vector) && from.width == to->width);
  if (numeric && shapes_fit) {
    if (!same_type(from, *to)) wrap_convert(e, to);
    e->type = to;
    return;
  }
  if (to->is(Type::Kind::Pointer) && from.is(Type::Kind::Pointer) && from.space == to->space &&
      same_type(*from.element, *to->element)) {
    e->type = to;
    return;
  }
  if (to->is(Type::Kind::Pointer) && (from.is(Type::Kind::Pointer) || from.is(Type::Kind::Array))) {
    type_error(where, "casts between pointer types (" + type_name(from) + " to " + type_name(*to) +
                          ") are not supported by the emulator's Metal front end");
  }
  type_error(where, "cannot convert from '" + type_name(from) + "' to '" + type_name(*to) + "'");
}

TypeRef Checker::promoted(const TypeRef& type) {
  if (!type->is(Type::Kind::Scalar)) return type;
  const ScalarKind kind = promote(type->scalar);
  return kind == type->scalar ? with_const(type, false) : scalar_type(kind);
}

TypeRef Checker::arithmetic_type(Expr& lhs, Expr& rhs, Location where) {
  const Type& a = *lhs.type;
  const Type& b = *rhs.type;
  const std::string operands = "('" + type_name(a) + "' and '" + type_name(b) + "')";
  if (!a.is_numeric() || !b.is_numeric())
    type_error(where, "invalid operands to binary expression " + operands);
  const bool va = a.is(Type::Kind::Vector), vb = b.is(Type::Kind::Vector);
  if (va && vb) {
    if (a.width != b.width)
      type_error(where, "cannot convert between vector values of different size " + operands);
    if (a.scalar != b.scalar)
      type_error(where, "invalid operands to binary expression " + operands);
    return vector_type(a.scalar, a.width);
  }
  if (va || vb) {
    const Type& vector = va ? a : b;
    const Type& scalar = va ? b : a;
    if (is_floating(scalar.scalar) && !is_floating(vector.scalar)) {
      type_error(where, "cannot convert between scalar type '" + type_name(scalar) +
                            "' and vector type '" + type_name(vector) + "'");
    }
    return vector_type(vector.scalar, vector.width);
  }
  return scalar_type(common_kind(a.scalar, b.scalar));
}

std::optional<std::vector<Word>> Checker::fold(const Expr& e) const {
  using Values = std::vector<Word>;
  switch (e.kind) {
    case Expr::Kind::Literal:
      return Values{e.literal};
    case Expr::Kind::Variable:
      if (e.variable && e.variable->is_constexpr) return e.variable->value;
      return std::nullopt;
    case Expr::Kind::Convert: {
      const auto inner = fold(*e.operands[0]);
      if (!inner || !e.type->is_numeric()) return std::nullopt;
      const ScalarKind from = e.operands[0]->type->scalar;
      Values out;
      OpFault fault = OpFault::None;
      for (int c = 0; c < words_of(*e.type); ++c) {
        const Word w = (*inner)[inner->size() == 1 ? 0 : static_cast<std::size_t>(c)];
        out.push_back(convert_scalar(w, from, e.type->scalar, fault));
      }
      if (fault != OpFault::None) return std::nullopt;
      return out;
    }
    case Expr::Kind::Unary: {
      auto inner = fold(*e.operands[0]);
      if (!inner) return std::nullopt;
      for (Word& w : *inner) w = unary_scalar(e.op, e.operands[0]->type->scalar, w);
      return inner;
    }
    case Expr::Kind::Binary: {
      const auto a = fold(*e.operands[0]), b = fold(*e.operands[1]);
      if (!a || !b || a->size() != b->size() || !e.operands[0]->type->is_numeric())
        return std::nullopt;
      Values out;
      OpFault fault = OpFault::None;
      for (std::size_t c = 0; c < a->size(); ++c)
        out.push_back(binary_scalar(e.op, e.operands[0]->type->scalar, (*a)[c], (*b)[c], fault));
      if (fault != OpFault::None) return std::nullopt;
      return out;
    }
    case Expr::Kind::Conditional: {
      const auto c = fold(*e.operands[0]);
      if (!c) return std::nullopt;
      return fold(*e.operands[(*c)[0] != 0 ? 1 : 2]);
    }
    case Expr::Kind::Construct: {
      Values out;
      for (const auto& operand : e.operands) {
        const auto part = fold(*operand);
        if (!part) return std::nullopt;
        out.insert(out.end(), part->begin(), part->end());
      }
      return out;
    }
    default:
      return std::nullopt;
  }
}

}  // namespace engine::metal::detail
