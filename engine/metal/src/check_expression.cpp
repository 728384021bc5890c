// Expressions: names, operators, assignments, subscripts, swizzles and vector construction,
// typed by C++'s rules as MSL extends them to vectors (MSL specification, sections 2.2-2.3).

#include <cmath>
#include <limits>
#include <utility>

#include "checker_state.h"

namespace engine::metal::detail {
namespace {

bool is_integer_type(const Type& type) { return type.is_numeric() && !is_floating(type.scalar); }

std::string strip_prefix(std::string name, std::string_view prefix) {
  if (name.starts_with(prefix)) name.erase(0, prefix.size());
  return name;
}

// Constants metal_stdlib defines (MSL specification, section 6.5, and <metal_limits>).
struct NamedConstant {
  std::string_view name;
  ScalarKind kind;
  double value;
};
constexpr NamedConstant kNamedConstants[] = {
    {"M_E_F", ScalarKind::Float, 2.718281828459045},
    {"M_LOG2E_F", ScalarKind::Float, 1.4426950408889634},
    {"M_LOG10E_F", ScalarKind::Float, 0.4342944819032518},
    {"M_LN2_F", ScalarKind::Float, 0.6931471805599453},
    {"M_LN10_F", ScalarKind::Float, 2.302585092994046},
    {"M_PI_F", ScalarKind::Float, 3.141592653589793},
    {"M_PI_2_F", ScalarKind::Float, 1.5707963267948966},
    {"M_PI_4_F", ScalarKind::Float, 0.7853981633974483},
    {"M_1_PI_F", ScalarKind::Float, 0.3183098861837907},
    {"M_2_PI_F", ScalarKind::Float, 0.6366197723675814},
    {"M_2_SQRTPI_F", ScalarKind::Float, 1.1283791670955126},
    {"M_SQRT2_F", ScalarKind::Float, 1.4142135623730951},
    {"M_SQRT1_2_F", ScalarKind::Float, 0.7071067811865476},
    {"MAXFLOAT", ScalarKind::Float, 3.4028234663852886e38},
    {"FLT_MAX", ScalarKind::Float, 3.4028234663852886e38},
    {"FLT_MIN", ScalarKind::Float, 1.1754943508222875e-38},
    {"FLT_EPSILON", ScalarKind::Float, 1.1920928955078125e-07},
    {"HUGE_VALF", ScalarKind::Float, std::numeric_limits<double>::infinity()},
    {"INFINITY", ScalarKind::Float, std::numeric_limits<double>::infinity()},
    {"INT_MAX", ScalarKind::Int, 2147483647.0},
    {"INT_MIN", ScalarKind::Int, -2147483648.0},
    {"UINT_MAX", ScalarKind::UInt, 4294967295.0},
};

bool enum_constant(Expr& e, const std::string& name) {
  const std::string flag = strip_prefix(name, "mem_flags::");
  const std::pair<std::string_view, Word> flags[] = {
      {"mem_none", 0}, {"mem_device", 1}, {"mem_threadgroup", 2}, {"mem_texture", 4}};
  for (const auto& [spelling, value] : flags) {
    if (flag == spelling) {
      e.type = mem_flags_type();
      e.literal = value;
      return true;
    }
  }
  if (strip_prefix(name, "memory_order::") == "memory_order_relaxed") {
    e.type = memory_order_type();
    return true;
  }
  if (name.starts_with("memory_order")) {
    fail(e.where, "'" + name + "' is not supported: MSL's atomics take memory_order_relaxed");
  }
  if (name == "NAN") {
    e.type = scalar_type(ScalarKind::Float);
    e.literal = 0x7fc00000u;
    return true;
  }
  for (const NamedConstant& c : kNamedConstants) {
    if (name == c.name) {
      e.type = scalar_type(c.kind);
      e.literal = constant_word(c.kind, c.value);
      return true;
    }
  }
  return false;
}

}  // namespace

void Checker::expr(ExprPtr& e) {
  switch (e->kind) {
    case Expr::Kind::Literal:
    case Expr::Kind::Variable:
    case Expr::Kind::Convert:
    case Expr::Kind::Swizzle:
      return;
    case Expr::Kind::Name:
      return name(e);
    case Expr::Kind::Unary:
      expr(e->operands[0]);
      return unary(*e);
    case Expr::Kind::Binary:
      expr(e->operands[0]);
      expr(e->operands[1]);
      return binary(*e);
    case Expr::Kind::Conditional:
      return conditional(*e);
    case Expr::Kind::Assign:
      expr(e->operands[0]);
      expr(e->operands[1]);
      return assign(*e);
    case Expr::Kind::Increment:
      expr(e->operands[0]);
      return increment(*e);
    case Expr::Kind::Call:
      return call(e);
    case Expr::Kind::Construct:
      return construct(e);
    case Expr::Kind::Cast: {
      expr(e->operands[0]);
      const TypeRef to = e->written_type;
      const Location where = e->where;
      ExprPtr operand = std::move(e->operands[0]);
      explicit_convert(operand, to, where);
      operand->lvalue = false;
      operand->where = where;
      e = std::move(operand);
      return;
    }
    case Expr::Kind::Subscript:
      expr(e->operands[0]);
      expr(e->operands[1]);
      return subscript(*e);
    case Expr::Kind::Member:
      expr(e->operands[0]);
      return member(*e);
    case Expr::Kind::AddressOf: {
      expr(e->operands[0]);
      const Expr& target = *e->operands[0];
      if (!target.lvalue)
        type_error(e->where, "cannot take the address of an rvalue of type '" +
                                 type_name(*target.type) + "'");
      if (target.kind == Expr::Kind::Swizzle || (target.kind == Expr::Kind::Subscript &&
                                                 target.operands[0]->type->is(Type::Kind::Vector)))
        type_error(e->where, "address of vector element requested");
      e->type = pointer_to(target.type, target.space);
      return;
    }
    case Expr::Kind::Deref: {
      expr(e->operands[0]);
      const Type& pointer = *e->operands[0]->type;
      if (!pointer.is(Type::Kind::Pointer))
        type_error(e->where,
                   "indirection requires pointer operand ('" + type_name(pointer) + "' invalid)");
      e->type = pointer.element;
      e->lvalue = true;
      e->space = pointer.space;
      return;
    }
  }
}

void Checker::name(ExprPtr& e) {
  const std::string name = strip_prefix(strip_prefix(e->name, "::"), "metal::");
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    const auto found = scope->find(name);
    if (found == scope->end()) continue;
    const Variable& v = *found->second;
    e->kind = Expr::Kind::Variable;
    e->variable = &v;
    e->type = v.type;
    e->lvalue = true;
    switch (v.storage) {
      case Variable::Storage::Threadgroup:
        e->space = AddressSpace::Threadgroup;
        break;
      case Variable::Storage::ProgramConstant:
        e->space = AddressSpace::Constant;
        break;
      case Variable::Storage::Thread:
        e->space = v.is_reference ? v.reference_space : AddressSpace::Thread;
        break;
    }
    return;
  }
  if (enum_constant(*e, name)) {
    e->kind = Expr::Kind::Literal;
    return;
  }
  if (functions_.contains(name) || find_builtin(name))
    type_error(e->where, "'" + name + "' is a function: call it, as " + name + "(...)");
  type_error(e->where, "use of undeclared identifier '" + name + "'");
}

void Checker::unary(Expr& e) {
  ExprPtr& operand = e.operands[0];
  const Type& type = *operand->type;
  const std::string invalid = "invalid argument type '" + type_name(type) + "' to unary expression";
  switch (e.op) {
    case Op::Negate:
    case Op::Plus:
      if (!type.is_numeric() || (type.is(Type::Kind::Vector) && type.scalar == ScalarKind::Bool))
        type_error(e.where, invalid);
      e.type = promoted(operand->type);
      convert(operand, e.type, Conversion::Argument);
      return;
    case Op::Not:
      if (type.is(Type::Kind::Vector)) {
        e.type = vector_type(ScalarKind::Bool, type.width);
        explicit_convert(operand, e.type, e.where);
      } else {
        if (!type.is(Type::Kind::Scalar) && !type.is(Type::Kind::Pointer))
          type_error(e.where, invalid);
        e.type = bool_type();
        convert(operand, e.type, Conversion::Condition);
      }
      return;
    case Op::BitNot:
      if (!is_integer_type(type)) type_error(e.where, invalid);
      e.type = promoted(operand->type);
      convert(operand, e.type, Conversion::Argument);
      return;
    default:
      type_error(e.where, invalid);
  }
}

void Checker::binary(Expr& e) {
  ExprPtr& lhs = e.operands[0];
  ExprPtr& rhs = e.operands[1];
  const std::string operands =
      "('" + type_name(*lhs->type) + "' and '" + type_name(*rhs->type) + "')";
  if (e.op == Op::LogicalAnd || e.op == Op::LogicalOr) {
    if (lhs->type->is(Type::Kind::Vector) || rhs->type->is(Type::Kind::Vector))
      type_error(e.where, "invalid operands to binary expression " + operands);
    convert(lhs, bool_type(), Conversion::Condition);
    convert(rhs, bool_type(), Conversion::Condition);
    e.type = bool_type();
    return;
  }
  if (lhs->type->is(Type::Kind::Pointer) || rhs->type->is(Type::Kind::Pointer))
    return pointer_arithmetic(e);
  if (lhs->type->is(Type::Kind::MemFlags) && rhs->type->is(Type::Kind::MemFlags) &&
      e.op == Op::BitOr) {  // mem_flags::mem_device | mem_flags::mem_threadgroup
    e.type = mem_flags_type();
    return;
  }
  TypeRef type;
  if (e.op == Op::Shl || e.op == Op::Shr) {
    if (!is_integer_type(*lhs->type) || !is_integer_type(*rhs->type))
      type_error(e.where, "invalid operands to binary expression " + operands);
    type = promoted(lhs->type);
  } else {
    type = arithmetic_type(*lhs, *rhs, e.where);
  }
  const bool integer_only = e.op == Op::Rem || e.op == Op::BitAnd || e.op == Op::BitOr ||
                            e.op == Op::BitXor || e.op == Op::Shl || e.op == Op::Shr;
  if ((integer_only && is_floating(type->scalar)) ||
      (type->is(Type::Kind::Vector) && type->scalar == ScalarKind::Bool && e.op != Op::Equal &&
       e.op != Op::NotEqual && e.op != Op::BitAnd && e.op != Op::BitOr && e.op != Op::BitXor))
    type_error(e.where, "invalid operands to binary expression " + operands);
  explicit_convert(lhs, type, e.where);  // arithmetic_type allowed only what converts
  explicit_convert(rhs, type, e.where);
  const bool comparison = e.op >= Op::Less && e.op <= Op::NotEqual;
  e.type = comparison
               ? vector_type(ScalarKind::Bool, type->is(Type::Kind::Vector) ? type->width : 1)
               : type;
}

void Checker::pointer_arithmetic(Expr& e) {
  ExprPtr& lhs = e.operands[0];
  ExprPtr& rhs = e.operands[1];
  const bool lp = lhs->type->is(Type::Kind::Pointer), rp = rhs->type->is(Type::Kind::Pointer);
  const std::string operands =
      "('" + type_name(*lhs->type) + "' and '" + type_name(*rhs->type) + "')";
  const TypeRef offset = scalar_type(ScalarKind::Long);
  if (lp && rp) {
    if (!same_type(*lhs->type, *rhs->type))
      type_error(e.where, "invalid operands to binary expression " + operands);
    if (e.op == Op::Sub) {
      e.type = offset;
    } else if (e.op >= Op::Less && e.op <= Op::NotEqual) {
      e.type = bool_type();
    } else {
      type_error(e.where, "invalid operands to binary expression " + operands);
    }
    return;
  }
  ExprPtr& number = lp ? rhs : lhs;
  if ((e.op != Op::Add && !(e.op == Op::Sub && lp)) || !is_integer_type(*number->type) ||
      !number->type->is(Type::Kind::Scalar))
    type_error(e.where, "invalid operands to binary expression " + operands);
  convert(number, offset, Conversion::Argument);
  if (!lp) std::swap(lhs, rhs);  // the pointer first: n + p is p + n
  e.type = with_const(lhs->type, false);
}

}  // namespace engine::metal::detail
