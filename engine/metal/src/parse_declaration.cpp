// Functions, their parameters and attributes, and declarations of variables: at program scope
// (MSL allows only `constant` ones there) and in a function's body.

#include <utility>

#include "parser_state.h"

namespace engine::metal::detail {

void Parser::function(const Specifiers& spec, TypeRef result, const Token& name) {
  if (!result) fail(spec.where, "'auto' not allowed in function return type");
  auto fn = std::make_unique<Function>();
  fn->name = name.text;
  fn->where = name.where;
  fn->is_kernel = spec.is_kernel;
  fn->result = std::move(result);
  expect("(", "expected '('");
  if (!at(")")) {
    if (at("void") && at(")", 1)) {
      take();
    } else {
      do {
        fn->params.push_back(parameter());
      } while (accept(","));
    }
  }
  expect(")", "expected ')'");
  if (accept(";")) {
    program_.functions.push_back(std::move(fn));  // a declaration: the checker requires a body
    return;
  }
  if (!at("{")) fail(peek().where, "expected function body after function declarator");
  fn->body = block();
  program_.functions.push_back(std::move(fn));
}

Parameter Parser::parameter() {
  Parameter param;
  param.where = peek().where;
  const Specifiers spec = specifiers();
  TypeRef type = type_name();
  if (!type) fail(param.where, "'auto' not allowed in function prototype");
  const bool pointee_const = spec.is_const || accept("const");
  if (accept("*")) {
    accept("const");  // a const pointer: what it points to may still change
    param.type = pointer_to(with_const(type, pointee_const),
                            spec.has_space ? spec.space : AddressSpace::Thread);
  } else if (accept("&")) {
    param.is_reference = true;
    param.reference_space = spec.has_space ? spec.space : AddressSpace::Thread;
    param.type = with_const(type, pointee_const);
  } else {
    if (spec.has_space && spec.space != AddressSpace::Thread)
      fail(param.where, std::string("parameter may not be qualified with an address space"));
    param.type = with_const(type, pointee_const);
  }
  if (peek().kind == TokenKind::Identifier) param.name = take().text;
  if (at("[") && at("[", 1)) parameter_attribute(param);
  if (at("[")) unsupported(peek(), "array parameters");
  return param;
}

void Parser::parameter_attribute(Parameter& param) {
  take();
  take();
  param.attribute_where = peek().where;
  param.attribute = expect_identifier("an attribute");
  if (accept("(")) {
    if (peek().kind != TokenKind::Integer) fail(peek().where, "expected an integer constant");
    param.attribute_argument = static_cast<std::int64_t>(take().integer);
    expect(")", "expected ')'");
  }
  expect("]", "expected ']'");
  expect("]", "expected ']'");
}

StmtPtr Parser::declaration(Specifiers spec, TypeRef base, bool at_program_scope) {
  auto stmt = std::make_unique<Stmt>();
  stmt->kind = Stmt::Kind::Declaration;
  stmt->where = spec.where;
  stmt->is_const = spec.is_const || accept("const");
  stmt->is_constexpr = spec.is_constexpr;
  if (at_program_scope && (!spec.has_space || spec.space != AddressSpace::Constant) &&
      !spec.is_constexpr)
    fail(spec.where, "program scope variable must reside in constant address space");
  stmt->space = spec.has_space ? spec.space : AddressSpace::Thread;
  do {
    Declarator d;
    TypeRef type = base;
    if (accept("&")) unsupported(tokens_[pos_ - 1], "local references");
    if (accept("*")) {
      accept("const");
      if (!type) fail(tokens_[pos_ - 1].where, "'auto' not allowed here");
      // `device float* p`: the address space is where the pointee lives; p is a thread value
      type = pointer_to(with_const(type, stmt->is_const), stmt->space);
      stmt->space = AddressSpace::Thread;
      stmt->is_const = false;
    }
    d.where = peek().where;
    d.name = expect_identifier("unqualified-id");
    d.type = std::move(type);
    d.array_sizes = array_suffix();
    if (accept("=")) {
      if (at("{")) unsupported(peek(), "initializer lists");
      d.initializer = assignment();
    } else if (at("{") || at("(")) {
      unsupported(peek(), "direct initialization (T x(...) and T x{...})");
    }
    stmt->declarators.push_back(std::move(d));
  } while (accept(","));
  expect(";", "expected ';' at end of declaration");
  return stmt;
}

}  // namespace engine::metal::detail
