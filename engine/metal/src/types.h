#pragma once
// Internal: the types of the MSL subset. Scalars and vectors are values; an atomic lives only in
// memory; a pointer knows the address space of what it points to (MSL specification, section 4:
// device, constant, threadgroup, thread); an array has a fixed length. mem_flags and
// memory_order are the enumerations barriers and atomics take.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/metal/element_type.h"

namespace engine::metal::detail {

enum class AddressSpace : std::uint8_t { Thread, Threadgroup, Device, Constant };
const char* address_space_name(AddressSpace space) noexcept;  // "device", ...

struct Type;
using TypeRef = std::shared_ptr<const Type>;

struct Type {
  enum class Kind : std::uint8_t {
    Void,
    Scalar,
    Vector,
    Atomic,
    Pointer,
    Array,
    MemFlags,
    MemoryOrder
  };
  Kind kind = Kind::Void;
  ScalarKind scalar = ScalarKind::Int;  // Scalar; Vector and Atomic: their element's
  int width = 1;                        // Vector: 2 to 4
  bool is_const = false;
  AddressSpace space = AddressSpace::Thread;  // Pointer: where what it points to lives
  TypeRef element;                            // Pointer: what it points to; Array: its element
  std::int64_t length = 0;                    // Array

  bool is(Kind k) const noexcept { return kind == k; }
  bool is_numeric() const noexcept { return kind == Kind::Scalar || kind == Kind::Vector; }
};

TypeRef void_type();
TypeRef scalar_type(ScalarKind kind);
TypeRef vector_type(ScalarKind kind, int width);  // a scalar when width is 1
TypeRef atomic_type(ScalarKind kind);
TypeRef pointer_to(TypeRef pointee, AddressSpace space);
TypeRef array_of(TypeRef element, std::int64_t length);
TypeRef mem_flags_type();
TypeRef memory_order_type();
TypeRef bool_type();
TypeRef with_const(const TypeRef& type, bool is_const);
TypeRef element_scalar(const Type& type);  // float of float4, the scalar itself otherwise

// As clang spells types in its diagnostics: "const device float *", "float4", "float [16]".
std::string type_name(const Type& type);
bool same_type(const Type& a, const Type& b, bool ignore_const = true);

// Words a value of this type takes in registers and thread memory: one per scalar component
// (and per pointer); an array, its elements'.
int words_of(const Type& type);
// Bytes and alignment in threadgroup and device memory, as MSL lays them out.
std::size_t byte_size(const Type& type);
std::size_t byte_alignment(const Type& type);
// The buffer element a pointer's pointee (or a reference's type) is.
ElementType element_type_of(const Type& type);

}  // namespace engine::metal::detail
