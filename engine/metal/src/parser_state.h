#pragma once
// Internal: the parser's state and the helpers its three files share (parser.cpp: the program,
// functions, declarations and types; parse_statement.cpp; parse_expression.cpp).

#include <string>
#include <string_view>
#include <vector>

#include "ast.h"
#include "lexer.h"

namespace engine::metal::detail {

// What may precede a type in a declaration: qualifiers, an address space, `kernel`.
struct Specifiers {
  Location where;
  bool is_kernel = false;
  bool is_const = false;
  bool is_constexpr = false;
  bool has_space = false;
  AddressSpace space = AddressSpace::Thread;
};

// The deepest nesting of statements and expressions the parser accepts (clang's default
// bracket depth): deeper source would exhaust the stack of the passes that walk the tree.
inline constexpr int kMaxNesting = 256;

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, Program& program) : tokens_(tokens), program_(program) {}
  void parse_program();

  // --- tokens
  const Token& peek(std::size_t ahead = 0) const;
  const Token& take();
  bool at(std::string_view text, std::size_t ahead = 0) const;  // a punctuator or identifier
  bool accept(std::string_view text);
  const Token& expect(std::string_view text, std::string_view message);
  std::string expect_identifier(std::string_view what);
  [[noreturn]] void unsupported(const Token& token, std::string_view construct) const;

  // --- types and declarations (parser.cpp)
  bool starts_type(std::size_t ahead = 0) const;  // a type name or a qualifier of one
  Specifiers specifiers();
  TypeRef type_name();                  // null for `auto`
  std::vector<ExprPtr> array_suffix();  // [N][M]: the sizes, folded by the checker
  StmtPtr declaration(Specifiers spec, TypeRef base, bool at_program_scope);

  // --- statements (parse_statement.cpp)
  StmtPtr statement();
  StmtPtr block();

  // --- expressions (parse_expression.cpp)
  ExprPtr expression();
  ExprPtr assignment();

 private:
  void top_level();
  void function(const Specifiers& spec, TypeRef result, const Token& name);
  Parameter parameter();
  void parameter_attribute(Parameter& param);
  StmtPtr for_statement(Location where);
  StmtPtr simple_statement();
  ExprPtr conditional();
  ExprPtr binary(int level);
  ExprPtr unary();
  ExprPtr postfix(ExprPtr base);
  ExprPtr primary();
  ExprPtr qualified_name();
  ExprPtr template_call(const Token& keyword);
  std::vector<ExprPtr> arguments(std::string_view close);

  // One more level of nesting, while it lives.
  class Nested {
   public:
    Nested(Parser& parser, Location where);
    ~Nested() { --parser_.depth_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    Parser& parser_;
  };

  const std::vector<Token>& tokens_;
  Program& program_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

ExprPtr make_expr(Expr::Kind kind, Location where);

}  // namespace engine::metal::detail
