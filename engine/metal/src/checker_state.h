#pragma once
// Internal: the checker's state, shared by its files: check_program.cpp (functions, kernel
// signatures, program constants), check_statement.cpp, check_expression.cpp,
// check_call.cpp (helper and builtin calls) and conversions.cpp.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ast.h"
#include "scalar_ops.h"

namespace engine::metal::detail {

// Where an implicit conversion happens, for clang's wording of its failure.
enum class Conversion : std::uint8_t { Initialize, Assign, Return, Argument, Condition };

// The most thread memory one thread may use, in words: 1,024 lanes of it must fit the
// emulator's memory budget (a local array larger than this is refused).
inline constexpr std::int64_t kMaxThreadWords = 4096;
// The most elements an array may have in all its dimensions (far beyond the 32 KiB of
// threadgroup memory or any thread's private memory, but small enough to lay out safely).
inline constexpr std::int64_t kMaxArrayElements = std::int64_t{1} << 24;

class Checker {
 public:
  explicit Checker(Program& program) : program_(program) {}
  void run();

  // --- program (check_program.cpp)
  void program_constants();
  void function(Function& fn);
  void kernel_parameters(Function& fn);
  void buffer_parameter(Function& fn, Parameter& p, int position, std::map<int, std::string>& used);
  void helper_parameters(Function& fn);
  Variable& new_variable(const std::string& name, Location where, TypeRef type,
                         Variable::Storage storage);
  void declare(Variable& variable);
  void allocate_thread(Variable& variable);

  // --- statements (check_statement.cpp)
  void statement(Stmt& stmt);
  void declaration(Stmt& stmt);
  TypeRef declared_type(Declarator& d, bool is_const);
  void threadgroup_variable(const Declarator& d, Variable& v);
  void thread_variable(Declarator& d, Variable& v, bool is_constexpr);
  void condition(ExprPtr& expr);

  // --- expressions (check_expression.cpp)
  void expr(ExprPtr& e);
  void name(ExprPtr& e);
  void unary(Expr& e);
  void binary(Expr& e);
  void pointer_arithmetic(Expr& e);
  void conditional(Expr& e);
  void assign(Expr& e);
  void increment(Expr& e);
  void subscript(Expr& e);
  void member(Expr& e);
  void construct(ExprPtr& e);
  void require_modifiable(const Expr& target, Location where);

  // --- calls (check_call.cpp)
  void call(ExprPtr& e);
  void helper_call(Expr& e, const Function& fn);
  void builtin_call(Expr& e, Builtin builtin);
  void math_call(Expr& e, Builtin builtin);
  void simd_call(Expr& e, Builtin builtin);
  void atomic_call(Expr& e, Builtin builtin);

  // --- conversions (conversions.cpp)
  void convert(ExprPtr& e, const TypeRef& to, Conversion context);
  void explicit_convert(ExprPtr& e, const TypeRef& to, Location where);
  void wrap_convert(ExprPtr& e, const TypeRef& to);
  TypeRef arithmetic_type(Expr& lhs, Expr& rhs, Location where);
  TypeRef promoted(const TypeRef& type);
  std::optional<std::vector<Word>> fold(const Expr& e) const;

  Program& program_;
  std::vector<std::map<std::string, Variable*, std::less<>>> scopes_;
  std::map<std::string, Function*, std::less<>> functions_;
  Function* current_ = nullptr;
  int loops_ = 0;
};

[[noreturn]] void type_error(Location where, const std::string& message);

}  // namespace engine::metal::detail
