#include "types.h"

#include <utility>

namespace engine::metal {

std::size_t scalar_size(ScalarKind kind) noexcept {
  switch (kind) {
    case ScalarKind::Bool:
    case ScalarKind::Char:
    case ScalarKind::UChar:
      return 1;
    case ScalarKind::Short:
    case ScalarKind::UShort:
    case ScalarKind::Half:
      return 2;
    case ScalarKind::Int:
    case ScalarKind::UInt:
    case ScalarKind::Float:
      return 4;
    case ScalarKind::Long:
    case ScalarKind::ULong:
      return 8;
  }
  return 4;
}

const char* scalar_name(ScalarKind kind) noexcept {
  constexpr const char* kNames[] = {"bool", "char", "uchar", "short", "ushort", "int",
                                    "uint", "long", "ulong", "half",  "float"};
  return kNames[static_cast<int>(kind)];
}

bool is_floating(ScalarKind kind) noexcept {
  return kind == ScalarKind::Half || kind == ScalarKind::Float;
}

bool is_signed(ScalarKind kind) noexcept {
  return kind == ScalarKind::Char || kind == ScalarKind::Short || kind == ScalarKind::Int ||
         kind == ScalarKind::Long || is_floating(kind);
}

std::size_t ElementType::size() const noexcept {
  return scalar_size(scalar) * static_cast<std::size_t>(width == 3 ? 4 : width);
}
std::size_t ElementType::alignment() const noexcept { return size(); }
std::string ElementType::name() const {
  std::string text = scalar_name(scalar);
  if (atomic) return "atomic_" + text;
  return width > 1 ? text + std::to_string(width) : text;
}

}  // namespace engine::metal

namespace engine::metal::detail {

const char* address_space_name(AddressSpace space) noexcept {
  switch (space) {
    case AddressSpace::Thread:
      return "thread";
    case AddressSpace::Threadgroup:
      return "threadgroup";
    case AddressSpace::Device:
      return "device";
    case AddressSpace::Constant:
      return "constant";
  }
  return "thread";
}

namespace {

TypeRef make(Type type) { return std::make_shared<const Type>(std::move(type)); }

Type of_kind(Type::Kind kind, ScalarKind scalar = ScalarKind::Int, int width = 1) {
  Type type;
  type.kind = kind;
  type.scalar = scalar;
  type.width = width;
  return type;
}

}  // namespace

TypeRef void_type() {
  static const TypeRef type = make({});
  return type;
}

TypeRef scalar_type(ScalarKind kind) { return make(of_kind(Type::Kind::Scalar, kind)); }

TypeRef vector_type(ScalarKind kind, int width) {
  if (width == 1) return scalar_type(kind);
  return make(of_kind(Type::Kind::Vector, kind, width));
}

TypeRef atomic_type(ScalarKind kind) { return make(of_kind(Type::Kind::Atomic, kind)); }

TypeRef pointer_to(TypeRef pointee, AddressSpace space) {
  Type type = of_kind(Type::Kind::Pointer);
  type.space = space;
  type.element = std::move(pointee);
  return make(std::move(type));
}

TypeRef array_of(TypeRef element, std::int64_t length) {
  Type type = of_kind(Type::Kind::Array);
  type.element = std::move(element);
  type.length = length;
  return make(std::move(type));
}

TypeRef mem_flags_type() { return make(of_kind(Type::Kind::MemFlags)); }
TypeRef memory_order_type() { return make(of_kind(Type::Kind::MemoryOrder)); }
TypeRef bool_type() { return scalar_type(ScalarKind::Bool); }

TypeRef with_const(const TypeRef& type, bool is_const) {
  if (type->is_const == is_const) return type;
  Type copy = *type;
  copy.is_const = is_const;
  return make(std::move(copy));
}

TypeRef element_scalar(const Type& type) { return scalar_type(type.scalar); }

std::string type_name(const Type& type) {
  const std::string qualifier = type.is_const ? "const " : "";
  switch (type.kind) {
    case Type::Kind::Void:
      return "void";
    case Type::Kind::Scalar:
      return qualifier + scalar_name(type.scalar);
    case Type::Kind::Vector:
      return qualifier + scalar_name(type.scalar) + std::to_string(type.width);
    case Type::Kind::Atomic:
      return qualifier + "atomic_" + scalar_name(type.scalar);
    case Type::Kind::MemFlags:
      return "metal::mem_flags";
    case Type::Kind::MemoryOrder:
      return "metal::memory_order";
    case Type::Kind::Array: {  // float [16][16]: the element, then every dimension
      std::string dims;
      const Type* t = &type;
      for (; t->is(Type::Kind::Array); t = t->element.get())
        dims += "[" + std::to_string(t->length) + "]";
      return type_name(*t) + " " + dims;
    }
    case Type::Kind::Pointer: {
      const Type& pointee = *type.element;
      std::string text = (pointee.is_const ? "const " : "") +
                         std::string(address_space_name(type.space)) + " " +
                         type_name(*with_const(type.element, false));
      return text + " *" + (type.is_const ? "const" : "");
    }
  }
  return "void";
}

bool same_type(const Type& a, const Type& b, bool ignore_const) {
  if (a.kind != b.kind || (!ignore_const && a.is_const != b.is_const)) return false;
  switch (a.kind) {
    case Type::Kind::Scalar:
    case Type::Kind::Atomic:
      return a.scalar == b.scalar;
    case Type::Kind::Vector:
      return a.scalar == b.scalar && a.width == b.width;
    case Type::Kind::Pointer:
      return a.space == b.space && a.element->is_const == b.element->is_const &&
             same_type(*a.element, *b.element);
    case Type::Kind::Array:
      return a.length == b.length && same_type(*a.element, *b.element);
    default:
      return true;
  }
}

int words_of(const Type& type) {
  switch (type.kind) {
    case Type::Kind::Vector:
      return type.width;
    case Type::Kind::Array:
      return static_cast<int>(type.length) * words_of(*type.element);
    case Type::Kind::Void:
      return 0;
    default:
      return 1;
  }
}

std::size_t byte_size(const Type& type) {
  if (type.kind == Type::Kind::Array)
    return static_cast<std::size_t>(type.length) * byte_size(*type.element);
  return element_type_of(type).size();
}

std::size_t byte_alignment(const Type& type) {
  if (type.kind == Type::Kind::Array) return byte_alignment(*type.element);
  return element_type_of(type).alignment();
}

ElementType element_type_of(const Type& type) {
  return {.scalar = type.scalar,
          .width = type.kind == Type::Kind::Vector ? type.width : 1,
          .atomic = type.kind == Type::Kind::Atomic};
}

}  // namespace engine::metal::detail
