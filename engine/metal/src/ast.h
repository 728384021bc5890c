#pragma once
// Internal: the syntax tree of a library. The parser builds it with source locations; the
// checker resolves names, inserts the implicit conversions, gives every expression its type
// and lays out memory; the executor walks the checked tree.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "builtins.h"
#include "engine/metal/library.h"
#include "source_text.h"
#include "types.h"

namespace engine::metal::detail {

enum class Op : std::uint8_t {
  None,
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  BitAnd,
  BitOr,
  BitXor,
  LogicalAnd,
  LogicalOr,
  Less,
  Greater,
  LessEqual,
  GreaterEqual,
  Equal,
  NotEqual,
  Negate,
  Plus,
  Not,
  BitNot,
};
std::string_view op_spelling(Op op);

struct Variable;
struct Function;

struct Expr {
  enum class Kind : std::uint8_t {
    // as parsed (the checker rewrites Name, Member, Construct and Cast)
    Literal,      // `literal` holds the value's word
    Name,         // `name`, possibly qualified ("metal::exp")
    Unary,        // op operand
    Binary,       // lhs op rhs
    Conditional,  // cond ? a : b
    Assign,       // target op= value (op None for plain =)
    Increment,    // ++/-- target, `prefix` and `increment` say which
    Call,         // name(args): a helper function or a builtin
    Construct,    // T(args) and T{args}: a vector built from parts, or a conversion
    Cast,         // (T)x and static_cast<T>(x)
    Subscript,    // base[index]
    Member,       // base.name: a swizzle
    AddressOf,    // &x
    Deref,        // *p
    // made by the checker
    Variable,  // a named object: `variable`
    Convert,   // the operand converted to `type`
    Swizzle,   // components `swizzle[0..count)` of a vector
  };

  Kind kind = Kind::Literal;
  Location where;
  Op op = Op::None;
  bool prefix = false, increment = false;
  std::string name;
  std::uint64_t literal = 0;
  TypeRef written_type;  // Construct, Cast and as_type<T>: the type written
  std::vector<std::unique_ptr<Expr>> operands;

  // filled in by the checker
  TypeRef type;
  bool lvalue = false;
  AddressSpace space = AddressSpace::Thread;  // an lvalue's: where the object lives
  const Variable* variable = nullptr;
  const Function* callee = nullptr;
  Builtin builtin = Builtin::None;
  std::array<std::uint8_t, 4> swizzle{};
  int swizzle_count = 0;
};
using ExprPtr = std::unique_ptr<Expr>;

// A named object. Locals and parameters live in thread memory at a fixed word address (MSL has
// no recursion, so every function's frame can be laid out once); threadgroup variables at a
// byte offset of the threadgroup's memory; program-scope constants hold their value.
struct Variable {
  enum class Storage : std::uint8_t { Thread, Threadgroup, ProgramConstant };
  std::string name;
  Location where;
  TypeRef type;
  Storage storage = Storage::Thread;
  bool is_reference = false;  // `thread float& x`, `constant float& val`: holds a pointer
  AddressSpace reference_space = AddressSpace::Thread;
  int id = 0;                        // its index in Program::variables, a pointer's object
  std::int64_t address = 0;          // thread: word; threadgroup: byte offset
  std::vector<std::uint64_t> value;  // program constants and constexpr locals
  bool is_constexpr = false;
};

struct Declarator {
  Location where;
  std::string name;
  TypeRef type;                      // null for auto; with array_sizes, the element type
  std::vector<ExprPtr> array_sizes;  // float tile[16][16]: 16, 16 (folded by the checker)
  ExprPtr initializer;
  Variable* variable = nullptr;
};

struct Stmt {
  enum class Kind : std::uint8_t {
    Block,
    Declaration,
    Expression,
    If,
    For,
    While,
    DoWhile,
    Break,
    Continue,
    Return,
    Empty
  };
  Kind kind = Kind::Empty;
  Location where;
  std::vector<std::unique_ptr<Stmt>> body;  // Block: statements; If: then, else; loops: body
  std::unique_ptr<Stmt> init;               // For
  ExprPtr condition;                        // If, For, While, DoWhile
  ExprPtr expression;                       // Expression, Return (may be null), For's step
  // Declaration
  AddressSpace space = AddressSpace::Thread;
  bool is_const = false;
  bool is_constexpr = false;
  std::vector<Declarator> declarators;
};
using StmtPtr = std::unique_ptr<Stmt>;

struct Parameter {
  Location where;
  std::string name;
  TypeRef type;  // a reference's referenced type
  bool is_reference = false;
  AddressSpace reference_space = AddressSpace::Thread;
  std::string attribute;  // "thread_position_in_grid", "buffer", or empty
  Location attribute_where;
  std::int64_t attribute_argument = -1;  // buffer(n)'s n
  Variable* variable = nullptr;
  // checked
  KernelInput input = KernelInput::ThreadPositionInGrid;
  bool is_input = false;
  int buffer_index = -1;
};

struct Function {
  std::string name;
  Location where;
  bool is_kernel = false;
  TypeRef result;
  std::vector<Parameter> params;
  StmtPtr body;  // null for a declaration without a body
  // checked
  std::vector<BufferParameter> buffers;
  std::int64_t threadgroup_memory = 0;
  std::vector<const Variable*> threadgroup_variables;
  const Variable* return_slot = nullptr;  // where a helper's result goes
};

struct Program {
  explicit Program(std::string_view source) : text(source) {}
  SourceText text;
  std::vector<std::unique_ptr<Function>> functions;
  std::vector<std::unique_ptr<Variable>> variables;
  std::vector<Declarator> constants;  // program-scope `constant` variables, in order
  int thread_words = 0;               // the words of thread memory every thread needs
};

}  // namespace engine::metal::detail
