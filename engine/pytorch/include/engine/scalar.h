#pragma once
// Models c10::Scalar (c10/core/Scalar.h): a number passed to an operator, which remembers
// whether it was a bool, an integer or a floating-point number. The kind decides type
// promotion: `int_tensor * 2` stays an integer tensor, `int_tensor * 2.5` becomes float32, as
// Python's int and float do (engine/type_promotion.h).

#include <concepts>
#include <cstdint>

#include "engine/scalar_type.h"

namespace engine {

class Scalar {
 public:
  Scalar(double value) : kind_(Kind::Floating), floating_(value) {}  // NOLINT: implicit, as c10's
  Scalar(float value) : Scalar(static_cast<double>(value)) {}        // NOLINT: implicit, as c10's
  Scalar(bool value) : kind_(Kind::Boolean), integral_(value ? 1 : 0) {}  // NOLINT: as c10's
  template <std::integral T>
  requires(!std::same_as<T, bool>) Scalar(T value)  // NOLINT: implicit, as c10's
      : kind_(Kind::Integral), integral_(static_cast<std::int64_t>(value)) {}

  bool isFloatingPoint() const noexcept { return kind_ == Kind::Floating; }
  bool isIntegral(bool include_bool) const noexcept {
    return kind_ == Kind::Integral || (include_bool && kind_ == Kind::Boolean);
  }
  bool isBoolean() const noexcept { return kind_ == Kind::Boolean; }
  // The type c10 gives the number itself: Double, Long or Bool.
  ScalarType type() const noexcept {
    return kind_ == Kind::Floating   ? ScalarType::Double
           : kind_ == Kind::Integral ? ScalarType::Long
                                     : ScalarType::Bool;
  }
  double toDouble() const noexcept {
    return kind_ == Kind::Floating ? floating_ : static_cast<double>(integral_);
  }
  std::int64_t toLong() const noexcept {
    return kind_ == Kind::Floating ? static_cast<std::int64_t>(floating_) : integral_;
  }
  bool toBool() const noexcept { return kind_ == Kind::Floating ? floating_ != 0 : integral_ != 0; }

 private:
  enum class Kind : std::uint8_t { Floating, Integral, Boolean };
  Kind kind_;
  double floating_ = 0;
  std::int64_t integral_ = 0;
};

}  // namespace engine
