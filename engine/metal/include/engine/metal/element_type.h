#pragma once
// The values a Metal buffer holds, as the Metal Shading Language names them (MSL specification,
// section 2.1 "Scalar Data Types" and 2.2 "Vector Data Types"): a scalar or a vector of two to
// four of them, or an atomic. Their sizes and alignments are MSL's (a float3 takes 16 bytes).

#include <cstddef>
#include <cstdint>
#include <string>

namespace engine::metal {

enum class ScalarKind : std::uint8_t {
  Bool,
  Char,
  UChar,
  Short,
  UShort,
  Int,
  UInt,
  Long,
  ULong,
  Half,
  Float
};

std::size_t scalar_size(ScalarKind kind) noexcept;  // bytes: 1, 2, 4 or 8
const char* scalar_name(ScalarKind kind) noexcept;  // "float", "uint", ...
bool is_floating(ScalarKind kind) noexcept;         // half and float
bool is_signed(ScalarKind kind) noexcept;           // char, short, int, long, half, float

// One element of a buffer: `float`, `uint2`, `atomic_float`.
struct ElementType {
  ScalarKind scalar = ScalarKind::Float;
  int width = 1;  // 1 for a scalar, 2 to 4 for a vector
  bool atomic = false;

  std::size_t size() const noexcept;       // a vector of three takes the room of four
  std::size_t alignment() const noexcept;  // its size, for every type MSL has
  std::string name() const;                // "float", "float4", "atomic_float"
  bool operator==(const ElementType&) const = default;
};

}  // namespace engine::metal
