// Note [Type promotion] (engine/type_promotion.h), as c10's promoteTypes and ATen's
// ResultTypeState compute it.

#include "engine/type_promotion.h"

#include <optional>

#include "tensor/type_promotion_state.h"

namespace engine {
namespace {

constexpr ScalarType u1 = ScalarType::Byte, i1 = ScalarType::Char, i2 = ScalarType::Short,
                     i4 = ScalarType::Int, i8 = ScalarType::Long, f2 = ScalarType::Half,
                     f4 = ScalarType::Float, f8 = ScalarType::Double, b1 = ScalarType::Bool,
                     bf = ScalarType::BFloat16;

// c10/core/ScalarType.cpp's _promoteTypesLookup, its rows and columns in ScalarType's order.
constexpr ScalarType kPromoted[10][10] = {
    /*        u1  i1  i2  i4  i8  f2  f4  f8  b1  bf */
    /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, u1, bf},
    /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, i1, bf},
    /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, i2, bf},
    /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, i4, bf},
    /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, i8, bf},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
    /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf},
    /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, bf, bf},
};

std::optional<ScalarType> promote_skip_undefined(std::optional<ScalarType> a,
                                                 std::optional<ScalarType> b) {
  if (!a) return b;
  if (!b) return a;
  return promote_types(*a, *b);
}

// TypeProperties.cpp's combine_categories (without complex types): a higher category wins,
// except that bool, or a floating-point lower one, promotes with it.
std::optional<ScalarType> combine_categories(std::optional<ScalarType> higher,
                                             std::optional<ScalarType> lower) {
  if (higher && is_floating_point(*higher)) return higher;
  if (higher == ScalarType::Bool || (lower && is_floating_point(*lower)))
    return promote_skip_undefined(higher, lower);
  return higher ? higher : lower;
}

}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  return kPromoted[static_cast<int>(a)][static_cast<int>(b)];
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_point(from) && isIntegralType(to, false)) return false;
  return from == ScalarType::Bool || to != ScalarType::Bool;
}

namespace detail {

void ResultTypeState::add(const Tensor& t) {
  if (t.dim() > 0) {
    dimensioned = promote_skip_undefined(dimensioned, t.scalar_type());
  } else {
    zero_dim = promote_skip_undefined(zero_dim, t.scalar_type());
  }
}

// A Python number is a wrapped number: a floating one counts as the default dtype.
void ResultTypeState::add(const Scalar& s) {
  const ScalarType type = s.isFloatingPoint() ? ScalarType::Float : s.type();
  wrapped = promote_skip_undefined(wrapped, type);
}

ScalarType ResultTypeState::result() const {
  return combine_categories(dimensioned, combine_categories(zero_dim, wrapped))
      .value_or(ScalarType::Float);
}

}  // namespace detail

ScalarType result_type(const Tensor& a, const Tensor& b) {
  detail::ResultTypeState state;
  state.add(a);
  state.add(b);
  return state.result();
}

ScalarType result_type(const Tensor& a, const Scalar& b) {
  detail::ResultTypeState state;
  state.add(a);
  state.add(b);
  return state.result();
}

ScalarType result_type(const Scalar& a, const Tensor& b) { return result_type(b, a); }

ScalarType result_type(const Scalar& a, const Scalar& b) {
  detail::ResultTypeState state;
  state.add(a);
  state.add(b);
  return state.result();
}

}  // namespace engine
