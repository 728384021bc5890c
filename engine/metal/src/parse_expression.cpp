// Expressions by precedence climbing, C++'s precedence and associativity: assignment (right),
// the conditional operator, ten levels of binary operators, unary operators and casts, then
// postfix subscripts, calls, member accesses (swizzles) and increments.

#include <bit>
#include <utility>

#include "engine/metal/half.h"
#include "parser_state.h"

namespace engine::metal::detail {
namespace {

struct BinaryOperator {
  std::string_view spelling;
  Op op;
  int level;
};

constexpr BinaryOperator kBinaryOperators[] = {
    {"||", Op::LogicalOr, 0}, {"&&", Op::LogicalAnd, 1},   {"|", Op::BitOr, 2},
    {"^", Op::BitXor, 3},     {"&", Op::BitAnd, 4},        {"==", Op::Equal, 5},
    {"!=", Op::NotEqual, 5},  {"<", Op::Less, 6},          {">", Op::Greater, 6},
    {"<=", Op::LessEqual, 6}, {">=", Op::GreaterEqual, 6}, {"<<", Op::Shl, 7},
    {">>", Op::Shr, 7},       {"+", Op::Add, 8},           {"-", Op::Sub, 8},
    {"*", Op::Mul, 9},        {"/", Op::Div, 9},           {"%", Op::Rem, 9}};
constexpr int kTopLevel = 9;

constexpr std::pair<std::string_view, Op> kAssignOperators[] = {
    {"=", Op::None},    {"+=", Op::Add},  {"-=", Op::Sub},    {"*=", Op::Mul},
    {"/=", Op::Div},    {"%=", Op::Rem},  {"&=", Op::BitAnd}, {"|=", Op::BitOr},
    {"^=", Op::BitXor}, {"<<=", Op::Shl}, {">>=", Op::Shr}};

// The type of an integer literal (C++ [lex.icon]): the first of int, long (decimal) or int,
// uint, long, ulong (hexadecimal) that holds it; a u suffix keeps only the unsigned ones.
ScalarKind integer_literal_kind(const Token& token) {
  const std::uint64_t v = token.integer;
  const bool hex = token.text.size() > 1 && (token.text[1] == 'x' || token.text[1] == 'X');
  if (token.is_unsigned) {
    return !token.is_long && v <= 0xffffffffu ? ScalarKind::UInt : ScalarKind::ULong;
  }
  if (!token.is_long && v <= 0x7fffffffu) return ScalarKind::Int;
  if (hex && !token.is_long && v <= 0xffffffffu) return ScalarKind::UInt;
  if (v <= 0x7fffffffffffffffu) return ScalarKind::Long;
  return ScalarKind::ULong;
}

}  // namespace

ExprPtr Parser::expression() { return assignment(); }

ExprPtr Parser::assignment() {
  ExprPtr lhs = conditional();
  for (const auto& [spelling, op] : kAssignOperators) {
    if (at(spelling)) {
      auto assign = make_expr(Expr::Kind::Assign, take().where);
      assign->op = op;
      assign->operands.push_back(std::move(lhs));
      assign->operands.push_back(assignment());
      return assign;
    }
  }
  return lhs;
}

ExprPtr Parser::conditional() {
  ExprPtr cond = binary(0);
  if (!at("?")) return cond;
  auto expr = make_expr(Expr::Kind::Conditional, take().where);
  expr->operands.push_back(std::move(cond));
  expr->operands.push_back(expression());
  expect(":", "expected ':'");
  expr->operands.push_back(conditional());
  return expr;
}

ExprPtr Parser::binary(int level) {
  if (level > kTopLevel) return unary();
  ExprPtr lhs = binary(level + 1);
  std::vector<std::unique_ptr<Nested>> chain;  // a + b + c nests its left side one deeper each
  while (true) {
    const BinaryOperator* found = nullptr;
    for (const BinaryOperator& candidate : kBinaryOperators) {
      if (candidate.level == level && at(candidate.spelling)) found = &candidate;
    }
    if (!found) return lhs;
    chain.push_back(std::make_unique<Nested>(*this, peek().where));
    auto expr = make_expr(Expr::Kind::Binary, take().where);
    expr->op = found->op;
    expr->operands.push_back(std::move(lhs));
    expr->operands.push_back(binary(level + 1));
    lhs = std::move(expr);
  }
}

ExprPtr Parser::unary() {
  const Location where = peek().where;
  const Nested nested(*this, where);
  const std::pair<std::string_view, Op> prefixes[] = {
      {"-", Op::Negate}, {"+", Op::Plus}, {"!", Op::Not}, {"~", Op::BitNot}};
  for (const auto& [spelling, op] : prefixes) {
    if (accept(spelling)) {
      auto expr = make_expr(Expr::Kind::Unary, where);
      expr->op = op;
      expr->operands.push_back(unary());
      return expr;
    }
  }
  if (at("++") || at("--")) {
    auto expr = make_expr(Expr::Kind::Increment, where);
    expr->prefix = true;
    expr->increment = take().text == "++";
    expr->operands.push_back(unary());
    return expr;
  }
  if (accept("&") || accept("*")) {
    auto expr =
        make_expr(tokens_[pos_ - 1].text == "&" ? Expr::Kind::AddressOf : Expr::Kind::Deref, where);
    expr->operands.push_back(unary());
    return expr;
  }
  if (at("(") && starts_type(1)) {  // (T)x, unless it is (T(x)) or (T{x})
    const std::size_t start = pos_;
    take();
    const Specifiers spec = specifiers();
    TypeRef type = type_name();
    if (accept("*")) type = pointer_to(with_const(type, spec.is_const), spec.space);
    if (accept(")")) {
      if (!type) fail(where, "'auto' not allowed here");
      auto expr = make_expr(Expr::Kind::Cast, where);
      expr->written_type = std::move(type);
      expr->operands.push_back(unary());
      return expr;
    }
    pos_ = start;
  }
  return postfix(primary());
}

ExprPtr Parser::postfix(ExprPtr base) {
  while (true) {
    const Location where = peek().where;
    if (accept("[")) {  // located, as clang locates it, where the subscripted value starts
      auto expr = make_expr(Expr::Kind::Subscript, base->where);
      expr->operands.push_back(std::move(base));
      expr->operands.push_back(expression());
      expect("]", "expected ']'");
      base = std::move(expr);
    } else if (at("(")) {
      if (base->kind != Expr::Kind::Name) fail(where, "called object is not a function");
      take();
      auto call = make_expr(Expr::Kind::Call, base->where);
      call->name = base->name;
      call->operands = arguments(")");
      base = std::move(call);
    } else if (accept(".")) {
      auto expr = make_expr(Expr::Kind::Member, base->where);
      expr->name = expect_identifier("unqualified-id");
      expr->operands.push_back(std::move(base));
      base = std::move(expr);
    } else if (at("->")) {
      unsupported(peek(), "member accesses through pointers (->)");
    } else if (at("++") || at("--")) {
      auto expr = make_expr(Expr::Kind::Increment, where);
      expr->increment = take().text == "++";
      expr->operands.push_back(std::move(base));
      base = std::move(expr);
    } else {
      return base;
    }
  }
}

std::vector<ExprPtr> Parser::arguments(std::string_view close) {
  std::vector<ExprPtr> args;
  if (!accept(close)) {
    do {
      args.push_back(assignment());
    } while (accept(","));
    expect(close, "expected '" + std::string(close) + "'");
  }
  return args;
}

ExprPtr Parser::primary() {
  const Token& token = peek();
  if (token.kind == TokenKind::Integer) {
    take();
    auto expr = make_expr(Expr::Kind::Literal, token.where);
    expr->type = scalar_type(integer_literal_kind(token));
    expr->literal = token.integer;
    return expr;
  }
  if (token.kind == TokenKind::Floating) {
    take();
    auto expr = make_expr(Expr::Kind::Literal, token.where);
    const bool half = token.suffix == 'h';
    expr->type = scalar_type(half ? ScalarKind::Half : ScalarKind::Float);
    const float value = half ? round_to_half(static_cast<float>(token.floating))
                             : static_cast<float>(token.floating);
    expr->literal = std::bit_cast<std::uint32_t>(value);
    return expr;
  }
  if (at("true") || at("false")) {
    auto expr = make_expr(Expr::Kind::Literal, take().where);
    expr->type = bool_type();
    expr->literal = token.text == "true" ? 1 : 0;
    return expr;
  }
  if (accept("(")) {
    ExprPtr inner = expression();
    expect(")", "expected ')'");
    return inner;
  }
  if (at("static_cast") || at("as_type")) return template_call(take());
  if (at("reinterpret_cast") || at("const_cast") || at("dynamic_cast"))
    unsupported(token, token.text + " expressions");
  if (at("this")) unsupported(token, "member functions (this)");
  if (at("[")) unsupported(token, "lambdas");
  if (token.kind == TokenKind::Identifier && starts_type()) {  // T(args), T{args}
    auto expr = make_expr(Expr::Kind::Construct, token.where);
    expr->written_type = type_name();
    if (!expr->written_type) fail(token.where, "'auto' not allowed here");
    if (accept("(")) {
      expr->operands = arguments(")");
    } else if (accept("{")) {
      expr->operands = arguments("}");
    } else {
      fail(peek().where, "expected '(' for function-style cast or type construction");
    }
    return expr;
  }
  if (token.kind == TokenKind::Identifier || at("::")) return qualified_name();
  fail(token.where, "expected expression");
}

ExprPtr Parser::qualified_name() {
  auto expr = make_expr(Expr::Kind::Name, peek().where);
  if (accept("::")) expr->name = "::";
  expr->name += expect_identifier("unqualified-id");
  while (at("::")) {
    take();
    expr->name += "::" + expect_identifier("unqualified-id");
  }
  if (at("<") && (expr->name.ends_with("atomic") || expr->name.ends_with("vec")))
    unsupported(peek(), "templates");
  return expr;
}

// static_cast<T>(x) converts as (T)x does; as_type<T>(x) reinterprets the bits of x.
ExprPtr Parser::template_call(const Token& keyword) {
  expect("<", "expected '<' after '" + keyword.text + "'");
  const Specifiers spec = specifiers();
  TypeRef type = type_name();
  if (!type) fail(keyword.where, "'auto' not allowed here");
  if (accept("*")) type = pointer_to(with_const(type, spec.is_const), spec.space);
  expect(">", "expected '>'");
  expect("(", "expected '('");
  auto expr =
      make_expr(keyword.text == "as_type" ? Expr::Kind::Call : Expr::Kind::Cast, keyword.where);
  expr->name = keyword.text;
  expr->written_type = std::move(type);
  expr->operands.push_back(expression());
  expect(")", "expected ')'");
  return expr;
}

}  // namespace engine::metal::detail
