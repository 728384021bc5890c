// Statements: blocks, declarations, expressions, if, the three loops, break, continue, return.

#include <utility>

#include "parser_state.h"

namespace engine::metal::detail {
namespace {

StmtPtr make_stmt(Stmt::Kind kind, Location where) {
  auto stmt = std::make_unique<Stmt>();
  stmt->kind = kind;
  stmt->where = where;
  return stmt;
}

}  // namespace

StmtPtr Parser::block() {
  auto stmt = make_stmt(Stmt::Kind::Block, expect("{", "expected '{'").where);
  while (!at("}")) {
    if (peek().kind == TokenKind::End) fail(peek().where, "expected '}'");
    stmt->body.push_back(statement());
  }
  take();
  return stmt;
}

StmtPtr Parser::statement() {
  const Token& token = peek();
  const Location where = token.where;
  const Nested nested(*this, where);
  if (at("{")) return block();
  if (accept(";")) return make_stmt(Stmt::Kind::Empty, where);
  if (accept("if")) {
    auto stmt = make_stmt(Stmt::Kind::If, where);
    expect("(", "expected '(' after 'if'");
    stmt->condition = expression();
    expect(")", "expected ')'");
    stmt->body.push_back(statement());
    if (accept("else")) stmt->body.push_back(statement());
    return stmt;
  }
  if (accept("for")) return for_statement(where);
  if (accept("while")) {
    auto stmt = make_stmt(Stmt::Kind::While, where);
    expect("(", "expected '(' after 'while'");
    stmt->condition = expression();
    expect(")", "expected ')'");
    stmt->body.push_back(statement());
    return stmt;
  }
  if (accept("do")) {
    auto stmt = make_stmt(Stmt::Kind::DoWhile, where);
    stmt->body.push_back(statement());
    expect("while", "expected 'while' in do/while loop");
    expect("(", "expected '(' after 'while'");
    stmt->condition = expression();
    expect(")", "expected ')'");
    expect(";", "expected ';' after do/while statement");
    return stmt;
  }
  if (accept("break") || accept("continue")) {
    auto stmt = make_stmt(token.text == "break" ? Stmt::Kind::Break : Stmt::Kind::Continue, where);
    expect(";", "expected ';' after " + token.text + " statement");
    return stmt;
  }
  if (accept("return")) {
    auto stmt = make_stmt(Stmt::Kind::Return, where);
    if (!at(";")) stmt->expression = expression();
    expect(";", "expected ';' after return statement");
    return stmt;
  }
  if (at("switch")) unsupported(token, "switch statements");
  if (at("goto")) unsupported(token, "goto statements");
  return simple_statement();
}

// A declaration or an expression, ending with ';'.
StmtPtr Parser::simple_statement() {
  const Location where = peek().where;
  if (starts_type()) {
    const Specifiers spec = specifiers();
    return declaration(spec, type_name(), /*at_program_scope=*/false);
  }
  auto stmt = make_stmt(Stmt::Kind::Expression, where);
  stmt->expression = expression();
  if (at(",")) unsupported(peek(), "comma operators");
  expect(";", "expected ';' after expression");
  return stmt;
}

StmtPtr Parser::for_statement(Location where) {
  auto stmt = make_stmt(Stmt::Kind::For, where);
  expect("(", "expected '(' after 'for'");
  if (!accept(";")) stmt->init = simple_statement();
  if (!at(";")) stmt->condition = expression();
  expect(";", "expected ';' in 'for' statement specifier");
  if (!at(")")) stmt->expression = expression();
  if (at(",")) unsupported(peek(), "comma operators");
  expect(")", "expected ')'");
  stmt->body.push_back(statement());
  return stmt;
}

}  // namespace engine::metal::detail
