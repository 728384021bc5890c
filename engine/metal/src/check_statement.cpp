// Statements: scopes, declarations (with array lengths folded and memory laid out), the
// conditions of if and the loops, and where break, continue and return may appear.

#include <utility>

#include "checker_state.h"

namespace engine::metal::detail {

void Checker::statement(Stmt& stmt) {
  switch (stmt.kind) {
    case Stmt::Kind::Block:
      scopes_.emplace_back();
      for (auto& inner : stmt.body) statement(*inner);
      scopes_.pop_back();
      return;
    case Stmt::Kind::Declaration:
      declaration(stmt);
      return;
    case Stmt::Kind::Expression:
      expr(stmt.expression);
      return;
    case Stmt::Kind::If:
      condition(stmt.condition);
      for (auto& branch : stmt.body) {
        scopes_.emplace_back();
        statement(*branch);
        scopes_.pop_back();
      }
      return;
    case Stmt::Kind::For:
      scopes_.emplace_back();
      if (stmt.init) statement(*stmt.init);
      if (stmt.condition) condition(stmt.condition);
      if (stmt.expression) expr(stmt.expression);
      ++loops_;
      statement(*stmt.body[0]);
      --loops_;
      scopes_.pop_back();
      return;
    case Stmt::Kind::While:
    case Stmt::Kind::DoWhile:
      condition(stmt.condition);
      ++loops_;
      scopes_.emplace_back();
      statement(*stmt.body[0]);
      scopes_.pop_back();
      --loops_;
      return;
    case Stmt::Kind::Break:
      if (loops_ == 0) type_error(stmt.where, "'break' statement not in loop or switch statement");
      return;
    case Stmt::Kind::Continue:
      if (loops_ == 0) type_error(stmt.where, "'continue' statement not in loop statement");
      return;
    case Stmt::Kind::Return: {
      const Function& fn = *current_;
      const bool is_void = fn.result->is(Type::Kind::Void);
      if (stmt.expression && is_void)
        type_error(stmt.where, "void function '" + fn.name + "' should not return a value");
      if (!stmt.expression && !is_void)
        type_error(stmt.where, "non-void function '" + fn.name + "' should return a value");
      if (stmt.expression) {
        expr(stmt.expression);
        convert(stmt.expression, fn.result, Conversion::Return);
      }
      return;
    }
    case Stmt::Kind::Empty:
      return;
  }
}

void Checker::condition(ExprPtr& e) {
  expr(e);
  const Type& type = *e->type;
  if (!type.is(Type::Kind::Scalar) && !type.is(Type::Kind::Pointer)) {
    type_error(e->where,
               "statement requires expression of scalar type ('" + type_name(type) + "' invalid)");
  }
  convert(e, bool_type(), Conversion::Condition);
}

void Checker::declaration(Stmt& stmt) {
  const bool threadgroup = stmt.space == AddressSpace::Threadgroup;
  if (stmt.space == AddressSpace::Device || stmt.space == AddressSpace::Constant) {
    type_error(stmt.where, std::string("variables in the ") + address_space_name(stmt.space) +
                               " address space cannot be declared in a function (declare a "
                               "pointer, or a program-scope constant)");
  }
  if (threadgroup && !current_->is_kernel)
    type_error(stmt.where, "threadgroup variables can only be declared in a kernel function");
  for (Declarator& d : stmt.declarators) {
    if (d.initializer) expr(d.initializer);
    const TypeRef type = declared_type(d, stmt.is_const);
    if (type->is(Type::Kind::Atomic) && !threadgroup)
      type_error(d.where, "atomic variables live in device or threadgroup memory");
    Variable& v =
        new_variable(d.name, d.where, type,
                     threadgroup ? Variable::Storage::Threadgroup : Variable::Storage::Thread);
    d.variable = &v;
    if (threadgroup) {
      threadgroup_variable(d, v);
    } else {
      thread_variable(d, v, stmt.is_constexpr);
    }
    declare(v);  // after its initializer, which may not read it (UB in C++)
  }
}

// The declarator's type: deduced from its initializer for auto, with its array dimensions.
TypeRef Checker::declared_type(Declarator& d, bool is_const) {
  TypeRef type = d.type;
  if (!type) {
    if (!d.initializer)
      type_error(d.where, "declaration of variable '" + d.name +
                              "' with deduced type 'auto' requires an initializer");
    type = d.initializer->type;
    if (type->is(Type::Kind::Array)) type_error(d.where, "an array cannot be copied");
  }
  if (type->is(Type::Kind::Void)) type_error(d.where, "variable has incomplete type 'void'");
  std::int64_t elements = 1;
  for (auto it = d.array_sizes.rbegin(); it != d.array_sizes.rend(); ++it) {
    expr(*it);
    const auto value = fold(**it);
    if (!value || !(*it)->type->is(Type::Kind::Scalar) || is_floating((*it)->type->scalar))
      type_error((*it)->where, "array size is not an integral constant expression");
    const auto length = word_signed((*value)[0]);
    if (length <= 0) type_error((*it)->where, "array size must be positive");
    elements *= length;
    if (length > kMaxArrayElements || elements > kMaxArrayElements)
      type_error((*it)->where, "array is too large for the emulator (more than 2^24 elements)");
    type = array_of(type, length);
  }
  return with_const(type, is_const && !type->is(Type::Kind::Array));
}

// A threadgroup variable: laid out in its kernel's threadgroup memory, undefined until written.
void Checker::threadgroup_variable(const Declarator& d, Variable& v) {
  if (d.initializer)
    type_error(d.where, "variables in the threadgroup address space cannot have an initializer");
  const auto align = static_cast<std::int64_t>(byte_alignment(*v.type));
  current_->threadgroup_memory = (current_->threadgroup_memory + align - 1) / align * align;
  v.address = current_->threadgroup_memory;
  current_->threadgroup_memory += static_cast<std::int64_t>(byte_size(*v.type));
  current_->threadgroup_variables.push_back(&v);
}

// A thread variable: its initializer converted to its type; a constexpr one's value folded.
void Checker::thread_variable(Declarator& d, Variable& v, bool is_constexpr) {
  if (d.initializer) {
    if (v.type->is(Type::Kind::Array))
      type_error(d.initializer->where,
                 "array initializers are not supported by the emulator's Metal front end");
    convert(d.initializer, v.type, Conversion::Initialize);
  } else if (v.type->is_const) {
    type_error(d.where,
               "default initialization of an object of const type '" + type_name(*v.type) + "'");
  }
  if (is_constexpr) {
    const auto value = d.initializer ? fold(*d.initializer) : std::nullopt;
    if (!value)
      type_error(d.where, "constexpr variable '" + d.name +
                              "' must be initialized by a constant expression");
    v.value = *value;
    v.is_constexpr = true;
  }
  allocate_thread(v);
}

}  // namespace engine::metal::detail
