#pragma once
// Internal: code written once for every dtype (AT_DISPATCH_ALL_TYPES_AND3's role), and the
// conversion of one element to another dtype (c10::convert, c10/util/TypeCast.h).
//
// Note [Converting to integers]
// Converting a floating-point value that does not fit an integer type is undefined in C++, and
// hosts disagree: x86 gives the "integer indefinite" (INT_MIN), arm64 saturates. The engine
// converts as Apple silicon does, on every host: NaN becomes 0 and values past the type's range
// become its limits; to uint8 through int64 first, as c10's static_cast_with_inter_type does
// (so -1.0 becomes 255).

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "engine/half.h"
#include "engine/scalar_type.h"

namespace engine::detail {

// Calls f(T{}) with T the C++ type of `dtype`.
template <typename F>
decltype(auto) visit_dtype(ScalarType dtype, F&& f) {
  switch (dtype) {
    case ScalarType::Byte:
      return f(std::uint8_t{});
    case ScalarType::Char:
      return f(std::int8_t{});
    case ScalarType::Short:
      return f(std::int16_t{});
    case ScalarType::Int:
      return f(std::int32_t{});
    case ScalarType::Long:
      return f(std::int64_t{});
    case ScalarType::Half:
      return f(Half{});
    case ScalarType::Double:
      return f(double{});
    case ScalarType::Bool:
      return f(bool{});
    case ScalarType::BFloat16:
      return f(BFloat16{});
    case ScalarType::Float:
      break;
  }
  return f(float{});
}

template <typename T>
inline constexpr bool is_half_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// A floating-point value as the integer type To: Note [Converting to integers].
template <typename To>
To float_to_integer(double value) {
  if (std::isnan(value)) return To{0};
  if constexpr (std::is_same_v<To, std::uint8_t>) {
    return static_cast<To>(float_to_integer<std::int64_t>(value));  // wraps: C++20 defines it
  } else {
    if (value <= static_cast<double>(std::numeric_limits<To>::min()))
      return std::numeric_limits<To>::min();
    if (value >= static_cast<double>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return static_cast<To>(value);
  }
}

// One element of type From as type To, as c10::convert does it: half types through float32,
// integers wrapping to narrower ones, anything nonzero (NaN too) to true.
template <typename To, typename From>
To cast_value(From value) {
  if constexpr (std::is_same_v<To, From>) {
    return value;
  } else if constexpr (is_half_v<From>) {
    return cast_value<To>(static_cast<float>(value));
  } else if constexpr (std::is_same_v<To, bool>) {
    return value != From{0};
  } else if constexpr (is_half_v<To>) {
    return To(static_cast<float>(value));  // double to half rounds twice, as c10::Half(float)
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    return float_to_integer<To>(static_cast<double>(value));
  } else {
    return static_cast<To>(value);
  }
}

}  // namespace engine::detail
