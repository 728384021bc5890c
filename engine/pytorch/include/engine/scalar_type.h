#pragma once
// Models c10::ScalarType for the dtypes the course needs: float32 for values, int64 for class
// labels, bool for tests such as isfinite, named as LibTorch names them (torch::kFloat32, ...).

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace engine {

enum class ScalarType : std::int8_t { Float, Long, Bool };

inline constexpr ScalarType kFloat = ScalarType::Float;
inline constexpr ScalarType kFloat32 = ScalarType::Float;
inline constexpr ScalarType kLong = ScalarType::Long;
inline constexpr ScalarType kInt64 = ScalarType::Long;
inline constexpr ScalarType kBool = ScalarType::Bool;

std::size_t elementSize(ScalarType type) noexcept;  // c10::elementSize: bytes per element
// "Float", "Long", "Bool", as c10 names them in its messages.
std::string_view scalar_type_name(ScalarType type) noexcept;
// "torch.float32", "torch.int64", "torch.bool", as Python prints a dtype.
std::string_view python_dtype_name(ScalarType type) noexcept;
bool is_floating_point(ScalarType type) noexcept;

template <typename T>
constexpr ScalarType scalar_type_of();
template <>
constexpr ScalarType scalar_type_of<float>() {
  return ScalarType::Float;
}
template <>
constexpr ScalarType scalar_type_of<std::int64_t>() {
  return ScalarType::Long;
}
template <>
constexpr ScalarType scalar_type_of<bool>() {
  return ScalarType::Bool;
}

}  // namespace engine
