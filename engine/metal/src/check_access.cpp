// Subscripts of pointers, arrays and vectors; swizzles (v.xy, c.rgba); and vectors built from
// scalars and smaller vectors (float4(a.xy, 0, 1)).

#include <utility>

#include "checker_state.h"

namespace engine::metal::detail {
namespace {

int component_index(char c, bool& rgba) {
  const std::string_view xyzw = "xyzw", colors = "rgba";
  if (xyzw.find(c) != std::string_view::npos) return static_cast<int>(xyzw.find(c));
  rgba = true;
  return colors.find(c) != std::string_view::npos ? static_cast<int>(colors.find(c)) : -1;
}

ExprPtr zero_literal(ScalarKind kind, Location where) {
  auto zero = std::make_unique<Expr>();
  zero->kind = Expr::Kind::Literal;
  zero->where = where;
  zero->type = scalar_type(kind);
  return zero;
}

}  // namespace

void Checker::subscript(Expr& e) {
  const Expr& base = *e.operands[0];
  const Type& index = *e.operands[1]->type;
  if (!index.is(Type::Kind::Scalar) || is_floating(index.scalar))
    type_error(e.operands[1]->where, "array subscript is not an integer");
  const Type& type = *base.type;
  if (type.is(Type::Kind::Pointer)) {
    e.type = type.element;
    e.space = type.space;
    e.lvalue = true;
  } else if (type.is(Type::Kind::Array)) {
    e.type = with_const(type.element, type.element->is_const || type.is_const);
    e.space = base.space;
    e.lvalue = base.lvalue;
  } else if (type.is(Type::Kind::Vector)) {
    e.type = with_const(scalar_type(type.scalar), type.is_const);
    e.space = base.space;
    e.lvalue = base.lvalue;
  } else {
    type_error(e.where, "subscripted value is not an array, pointer, or vector");
  }
}

void Checker::member(Expr& e) {
  const Expr& base = *e.operands[0];
  const Type& type = *base.type;
  if (!type.is(Type::Kind::Vector)) {
    type_error(e.where,
               "member reference base type '" + type_name(type) + "' is not a structure or union");
  }
  if (e.name.size() > 4) type_error(e.where, "vector component access has too many components");
  bool rgba = false, xyzw = false;
  for (std::size_t i = 0; i < e.name.size(); ++i) {
    bool is_rgba = false;
    const int index = component_index(e.name[i], is_rgba);
    if (index < 0 || (is_rgba ? xyzw : rgba))
      type_error(e.where, "illegal vector component name '" + std::string(1, e.name[i]) + "'");
    (is_rgba ? rgba : xyzw) = true;
    if (index >= type.width)
      type_error(e.where, "vector component access exceeds type '" + type_name(type) + "'");
    e.swizzle[i] = static_cast<std::uint8_t>(index);
  }
  e.kind = Expr::Kind::Swizzle;
  e.swizzle_count = static_cast<int>(e.name.size());
  e.type = with_const(vector_type(type.scalar, e.swizzle_count), type.is_const);
  e.lvalue = base.lvalue;
  e.space = base.space;
}

void Checker::construct(ExprPtr& e) {
  for (ExprPtr& operand : e->operands) expr(operand);
  const TypeRef type = e->written_type;
  const Location where = e->where;
  if (!type->is_numeric())
    type_error(where, "cannot construct a value of type '" + type_name(*type) + "'");
  if (e->operands.empty()) {  // T(): zero
    for (int c = 0; c < words_of(*type); ++c)
      e->operands.push_back(zero_literal(type->scalar, where));
    e->type = type;
    if (type->is(Type::Kind::Scalar)) e = std::move(e->operands[0]);
    return;
  }
  if (e->operands.size() == 1 &&
      (type->is(Type::Kind::Scalar) || e->operands[0]->type->is(Type::Kind::Scalar) ||
       words_of(*e->operands[0]->type) == type->width)) {
    ExprPtr operand = std::move(e->operands[0]);
    explicit_convert(operand, type, where);
    operand->lvalue = false;
    operand->where = where;  // diagnostics point at the construction, as clang's do
    e = std::move(operand);
    return;
  }
  if (type->is(Type::Kind::Scalar)) type_error(where, "excess elements in scalar initializer");
  int components = 0;
  for (ExprPtr& operand : e->operands) {
    const Type& part = *operand->type;
    if (!part.is_numeric()) {
      type_error(operand->where, "cannot initialize a vector element of type '" +
                                     std::string(scalar_name(type->scalar)) + "' with '" +
                                     type_name(part) + "'");
    }
    const int words = words_of(part);  // before the conversion replaces the operand's type
    explicit_convert(operand, vector_type(type->scalar, words), operand->where);
    components += words;
  }
  if (components < type->width) {
    type_error(where, "too few elements in vector initialization (expected " +
                          std::to_string(type->width) + " elements, have " +
                          std::to_string(components) + ")");
  }
  if (components > type->width) type_error(where, "excess elements in vector initializer");
  e->type = type;
}

}  // namespace engine::metal::detail
