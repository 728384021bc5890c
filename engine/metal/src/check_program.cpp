// The program level of the checker: program-scope constants, functions and what MSL requires
// of a kernel's signature (MSL specification, section 5.2.3: buffers in the device or constant
// address space, kernel inputs as uint or ushort scalars and vectors).

#include <utility>

#include "checker.h"
#include "checker_state.h"

namespace engine::metal::detail {
namespace {

std::string declaration_of(const Parameter& param) {
  if (param.is_reference) {
    return (param.type->is_const ? "const " : "") +
           std::string(address_space_name(param.reference_space)) + " " +
           type_name(*with_const(param.type, false)) + " &" + param.name;
  }
  return type_name(*param.type) + param.name;
}

bool is_input_type(const Type& type, bool vector_allowed) {
  const bool unsigned_kind = type.scalar == ScalarKind::UInt || type.scalar == ScalarKind::UShort;
  if (type.is(Type::Kind::Scalar)) return unsigned_kind;
  return vector_allowed && type.is(Type::Kind::Vector) && unsigned_kind && type.width <= 3;
}

}  // namespace

void check(Program& program) { Checker(program).run(); }

void type_error(Location where, const std::string& message) { fail(where, message); }

void Checker::run() {
  scopes_.emplace_back();
  program_constants();
  for (auto& fn : program_.functions) function(*fn);
}

Variable& Checker::new_variable(const std::string& name, Location where, TypeRef type,
                                Variable::Storage storage) {
  auto variable = std::make_unique<Variable>();
  variable->name = name;
  variable->where = where;
  variable->type = std::move(type);
  variable->storage = storage;
  variable->id = static_cast<int>(program_.variables.size());
  program_.variables.push_back(std::move(variable));
  return *program_.variables.back();
}

void Checker::declare(Variable& variable) {
  auto& scope = scopes_.back();
  if (scope.contains(variable.name))
    type_error(variable.where, "redefinition of '" + variable.name + "'");
  scope[variable.name] = &variable;
}

void Checker::allocate_thread(Variable& variable) {
  const int words = variable.is_reference ? 1 : words_of(*variable.type);
  variable.address = program_.thread_words;
  program_.thread_words += words;
  if (program_.thread_words > kMaxThreadWords) {
    type_error(variable.where,
               "the emulator gives a thread at most " + std::to_string(kMaxThreadWords) +
                   " values of private memory; '" + variable.name + "' takes it past that");
  }
}

void Checker::program_constants() {
  for (Declarator& d : program_.constants) {
    if (!d.array_sizes.empty())
      type_error(d.where, "constant arrays are not supported by the emulator's Metal front end");
    if (!d.initializer) type_error(d.where, "default initialization of an object of const type");
    expr(d.initializer);
    TypeRef type = d.type ? d.type : d.initializer->type;
    if (!type->is_numeric())
      type_error(d.where, "a program-scope constant must be a scalar or a vector");
    type = with_const(type, true);
    convert(d.initializer, type, Conversion::Initialize);
    const auto value = fold(*d.initializer);
    if (!value)
      type_error(d.initializer->where,
                 "initializer of a program-scope constant is not a constant expression");
    Variable& v = new_variable(d.name, d.where, type, Variable::Storage::ProgramConstant);
    v.value = *value;
    v.is_constexpr = true;
    d.variable = &v;
    declare(v);
  }
}

void Checker::function(Function& fn) {
  if (!fn.body) {
    type_error(fn.where,
               "function declarations without a body are not supported by the "
               "emulator's Metal front end");
  }
  if (functions_.contains(fn.name)) {
    type_error(fn.where, "redefinition of '" + fn.name +
                             "' (the emulator's Metal front end does not overload functions)");
  }
  functions_[fn.name] = &fn;
  current_ = &fn;
  scopes_.emplace_back();
  if (fn.is_kernel) {
    if (!fn.result->is(Type::Kind::Void))
      type_error(fn.where, "kernel function '" + fn.name + "' must return void");
    kernel_parameters(fn);
  } else {
    helper_parameters(fn);
    if (!fn.result->is(Type::Kind::Void)) {
      if (!fn.result->is_numeric() && !fn.result->is(Type::Kind::Pointer))
        type_error(fn.where, "a function returns a scalar, a vector or a pointer");
      Variable& slot =
          new_variable(fn.name + " result", fn.where, fn.result, Variable::Storage::Thread);
      allocate_thread(slot);
      fn.return_slot = &slot;
    }
  }
  statement(*fn.body);
  scopes_.pop_back();
  // Threadgroup memory is allocated in 16-byte units (MTLComputeCommandEncoder's rule for
  // threadgroup memory lengths).
  fn.threadgroup_memory = (fn.threadgroup_memory + 15) / 16 * 16;
  current_ = nullptr;
}

void Checker::kernel_parameters(Function& fn) {
  std::map<int, std::string> used;  // buffer index: the parameter bound there
  int position = 0;
  for (Parameter& p : fn.params) {
    if (p.name.empty()) type_error(p.where, "a kernel parameter needs a name");
    Variable& v = new_variable(p.name, p.where, p.type, Variable::Storage::Thread);
    v.is_reference = p.is_reference;
    v.reference_space = p.reference_space;
    p.variable = &v;
    allocate_thread(v);
    declare(v);
    if (const auto input = find_kernel_input(p.attribute)) {
      if (p.is_reference || !is_input_type(*p.type, is_vector_input(*input))) {
        type_error(p.attribute_where, "type '" + type_name(*p.type) +
                                          "' is not valid for attribute '" + p.attribute + "'");
      }
      p.is_input = true;
      p.input = *input;
    } else {
      buffer_parameter(fn, p, position++, used);
    }
  }
}

// A buffer: a pointer or a reference in device or constant memory, bound at its position among
// the buffers or at its [[buffer(n)]].
void Checker::buffer_parameter(Function& fn, Parameter& p, int position,
                               std::map<int, std::string>& used) {
  if (p.attribute == "threadgroup") {
    type_error(p.attribute_where,
               "threadgroup memory parameters ([[threadgroup(n)]]) are not supported by the "
               "emulator: declare a threadgroup array in the kernel instead");
  }
  if (!p.attribute.empty() && p.attribute != "buffer")
    type_error(p.attribute_where, "unknown attribute '" + p.attribute + "'");
  const bool pointer = p.type->is(Type::Kind::Pointer);
  const AddressSpace space = pointer ? p.type->space : p.reference_space;
  const Type& element = pointer ? *p.type->element : *p.type;
  if ((!pointer && !p.is_reference) ||
      (space != AddressSpace::Device && space != AddressSpace::Constant) ||
      !(element.is_numeric() || element.is(Type::Kind::Atomic))) {
    type_error(p.where,
               "invalid type '" + type_name(*p.type) +
                   "' for buffer declaration: a kernel's buffer is a pointer or a reference in the "
                   "device or constant address space");
  }
  if (element.is(Type::Kind::Atomic) && (space == AddressSpace::Constant || element.is_const))
    type_error(p.where, "an atomic in constant memory cannot be modified");
  int index = position;
  if (p.attribute == "buffer") {
    if (p.attribute_argument < 0 || p.attribute_argument > 30)
      type_error(p.attribute_where,
                 "'buffer' attribute parameter is out of bounds: must be between 0 and 30");
    index = static_cast<int>(p.attribute_argument);
  }
  if (used.contains(index)) {
    type_error(p.where, "buffer index " + std::to_string(index) + " is used by both '" +
                            used[index] + "' and '" + p.name + "'");
  }
  used[index] = p.name;
  p.buffer_index = index;
  fn.buffers.push_back({.name = p.name,
                        .declaration = declaration_of(p),
                        .index = index,
                        .element = element_type_of(element),
                        .writable = space == AddressSpace::Device && !element.is_const,
                        .single = p.is_reference});
}

void Checker::helper_parameters(Function& fn) {
  for (Parameter& p : fn.params) {
    if (!p.attribute.empty())
      type_error(p.attribute_where,
                 "'" + p.attribute + "' attribute only applies to kernel parameters");
    if (p.type->is(Type::Kind::Void) || p.type->is(Type::Kind::Atomic))
      type_error(p.where, "invalid parameter type '" + type_name(*p.type) + "'");
    Variable& v = new_variable(p.name, p.where, p.type, Variable::Storage::Thread);
    v.is_reference = p.is_reference;
    v.reference_space = p.reference_space;
    p.variable = &v;
    allocate_thread(v);
    if (!p.name.empty()) declare(v);
  }
}

}  // namespace engine::metal::detail
