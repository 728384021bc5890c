#pragma once
// Models c10::ScalarType (c10/core/ScalarType.h) for the dtypes PyTorch 2.9 has on the cpu and
// on mps, in c10's order, named as LibTorch names them (torch::kFloat16, torch::kInt64, ...).
// Complex, quantized and float8 types are left out: the course never meets them.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/half.h"

namespace engine {

enum class ScalarType : std::int8_t {
  Byte,    // uint8
  Char,    // int8
  Short,   // int16
  Int,     // int32
  Long,    // int64
  Half,    // float16
  Float,   // float32
  Double,  // float64
  Bool,
  BFloat16,
};

inline constexpr ScalarType kByte = ScalarType::Byte;
inline constexpr ScalarType kUInt8 = ScalarType::Byte;
inline constexpr ScalarType kChar = ScalarType::Char;
inline constexpr ScalarType kInt8 = ScalarType::Char;
inline constexpr ScalarType kShort = ScalarType::Short;
inline constexpr ScalarType kInt16 = ScalarType::Short;
inline constexpr ScalarType kInt = ScalarType::Int;
inline constexpr ScalarType kInt32 = ScalarType::Int;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kInt64 = ScalarType::Long;
inline constexpr ScalarType kHalf = ScalarType::Half;
inline constexpr ScalarType kFloat16 = ScalarType::Half;
inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kFloat32 = ScalarType::Float;
inline constexpr ScalarType kDouble = ScalarType::Double;
inline constexpr ScalarType kFloat64 = ScalarType::Double;
inline constexpr ScalarType kBool = ScalarType::Bool;
inline constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

std::size_t elementSize(ScalarType type) noexcept;  // c10::elementSize: bytes per element
// "Float", "Long", "Half", "BFloat16", as c10 names them in its messages.
std::string_view scalar_type_name(ScalarType type) noexcept;
// "torch.float32", "torch.int64", "torch.float16", as Python prints a dtype.
std::string_view python_dtype_name(ScalarType type) noexcept;
bool is_floating_point(ScalarType type) noexcept;
// c10::isIntegralType: the integer types, and bool when `include_bool` says so.
bool isIntegralType(ScalarType type, bool include_bool) noexcept;
// c10::isReducedFloatingType: float16 and bfloat16, which kernels compute in float32.
bool isReducedFloatingType(ScalarType type) noexcept;

template <typename T>
constexpr ScalarType scalar_type_of();
template <>
constexpr ScalarType scalar_type_of<std::uint8_t>() {
  return ScalarType::Byte;
}
template <>
constexpr ScalarType scalar_type_of<std::int8_t>() {
  return ScalarType::Char;
}
template <>
constexpr ScalarType scalar_type_of<std::int16_t>() {
  return ScalarType::Short;
}
template <>
constexpr ScalarType scalar_type_of<std::int32_t>() {
  return ScalarType::Int;
}
template <>
constexpr ScalarType scalar_type_of<std::int64_t>() {
  return ScalarType::Long;
}
template <>
constexpr ScalarType scalar_type_of<Half>() {
  return ScalarType::Half;
}
template <>
constexpr ScalarType scalar_type_of<float>() {
  return ScalarType::Float;
}
template <>
constexpr ScalarType scalar_type_of<double>() {
  return ScalarType::Double;
}
template <>
constexpr ScalarType scalar_type_of<bool>() {
  return ScalarType::Bool;
}
template <>
constexpr ScalarType scalar_type_of<BFloat16>() {
  return ScalarType::BFloat16;
}

}  // namespace engine
