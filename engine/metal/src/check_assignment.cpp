// The conditional operator, assignments (plain and compound), increments, and what may be
// assigned to: a modifiable lvalue, not const, not in the constant address space.

#include <utility>

#include "checker_state.h"

namespace engine::metal::detail {

void Checker::conditional(Expr& e) {
  condition(e.operands[0]);
  expr(e.operands[1]);
  expr(e.operands[2]);
  ExprPtr& a = e.operands[1];
  ExprPtr& b = e.operands[2];
  if (a->type->is_numeric() && b->type->is_numeric()) {
    e.type = arithmetic_type(*a, *b, e.where);
    explicit_convert(a, e.type, e.where);
    explicit_convert(b, e.type, e.where);
    return;
  }
  if (a->type->is(Type::Kind::Pointer) && same_type(*a->type, *b->type)) {
    e.type = a->type;
    return;
  }
  type_error(e.where, "incompatible operand types ('" + type_name(*a->type) + "' and '" +
                          type_name(*b->type) + "')");
}

void Checker::require_modifiable(const Expr& target, Location where) {
  if (!target.lvalue) type_error(where, "expression is not assignable");
  if (target.kind == Expr::Kind::Swizzle) {
    for (int i = 0; i < target.swizzle_count; ++i) {
      for (int j = 0; j < i; ++j) {
        if (target.swizzle[static_cast<std::size_t>(i)] ==
            target.swizzle[static_cast<std::size_t>(j)])
          type_error(where, "vector is not assignable (contains duplicate components)");
      }
    }
  }
  const bool is_const =
      target.type->is_const ||
      (target.kind == Expr::Kind::Swizzle && target.operands[0]->type->is_const) ||
      (target.kind == Expr::Kind::Subscript && target.operands[0]->type->is(Type::Kind::Vector) &&
       target.operands[0]->type->is_const);
  if (is_const && target.kind == Expr::Kind::Variable) {
    type_error(where, "cannot assign to variable '" + target.variable->name +
                          "' with const-qualified type '" + type_name(*target.type) + "'");
  }
  if (is_const || target.space == AddressSpace::Constant)
    type_error(where, "read-only variable is not assignable");
  if (target.type->is(Type::Kind::Array))
    type_error(where, "array type '" + type_name(*target.type) + "' is not assignable");
  if (target.type->is(Type::Kind::Atomic))
    type_error(where, "an atomic is assigned with atomic_store_explicit, not =");
}

void Checker::assign(Expr& e) {
  Expr& target = *e.operands[0];
  ExprPtr& value = e.operands[1];
  require_modifiable(target, e.where);
  const TypeRef target_type = with_const(target.type, false);
  e.type = target_type;
  if (e.op == Op::None) {
    convert(value, target_type, Conversion::Assign);
    return;
  }
  if (target_type->is(Type::Kind::Pointer)) {
    if ((e.op != Op::Add && e.op != Op::Sub) || !value->type->is(Type::Kind::Scalar) ||
        is_floating(value->type->scalar))
      type_error(e.where, "invalid operands to binary expression ('" + type_name(*target_type) +
                              "' and '" + type_name(*value->type) + "')");
    convert(value, scalar_type(ScalarKind::Long), Conversion::Argument);
    e.written_type = target_type;
    return;
  }
  // target op= value computes target op value in their common type, then converts back.
  Expr probe;
  probe.kind = Expr::Kind::Binary;
  probe.where = e.where;
  probe.op = e.op;
  auto copy_of = [](const Expr& x) {
    auto c = std::make_unique<Expr>();
    c->kind = Expr::Kind::Literal;
    c->where = x.where;
    c->type = x.type;
    return c;
  };
  probe.operands.push_back(copy_of(target));
  probe.operands.push_back(copy_of(*value));
  binary(probe);  // types the operation, or reports its operands as invalid
  const TypeRef operation = probe.operands[0]->type;
  if (target_type->is(Type::Kind::Vector) && !same_type(*operation, *target_type))
    type_error(e.where, "assigning to '" + type_name(*target_type) + "' from incompatible type '" +
                            type_name(*operation) + "'");
  explicit_convert(value, operation, e.where);
  e.written_type = operation;
}

void Checker::increment(Expr& e) {
  const Expr& target = *e.operands[0];
  require_modifiable(target, e.where);
  const Type& type = *target.type;
  if (!(type.is_numeric() && type.scalar != ScalarKind::Bool) && !type.is(Type::Kind::Pointer)) {
    type_error(e.where, std::string("cannot ") + (e.increment ? "increment" : "decrement") +
                            " value of type '" + type_name(type) + "'");
  }
  e.type = with_const(target.type, false);
}

}  // namespace engine::metal::detail
