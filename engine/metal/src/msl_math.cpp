#include "msl_math.h"

#include <cmath>
#include <limits>

#include "portable_math.h"

namespace engine::metal::detail {
namespace {

namespace portable = engine::kernels::portable;

constexpr double kLn2 = 0.6931471805599453;
constexpr double kLn10 = 2.302585092994046;
constexpr double kTwoPi = 6.283185307179586;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// sin and cos of a float, by the engine's series; arguments beyond 2^30 are first reduced by
// fmod (exact) with 2 pi rounded to double, which loses accuracy there but no determinism.
void sine_and_cosine(float x, double& sine, double& cosine) {
  double r = x;
  if (std::fabs(r) > 0x1p30) r = std::fmod(r, kTwoPi);
  portable::sin_cos(r, sine, cosine);
}

float tanh_of(float x) {
  const double a = std::fabs(static_cast<double>(x));
  if (a < 0x1p-12) return x;  // tanh x = x - x^3/3: the cube is below half a float unit
  if (a > 20) return std::copysign(1.0f, x);
  const double e = portable::exp(2 * a);
  return static_cast<float>(std::copysign((e - 1) / (e + 1), static_cast<double>(x)));
}

float pow_of(float x, float y) {
  if (y == 0 || x == 1) return 1.0f;
  if (std::isnan(x) || std::isnan(y)) return kNaN;
  if (x == 0) return y > 0 ? 0.0f : std::numeric_limits<float>::infinity();
  const bool odd_integer = std::trunc(y) == y && std::fmod(std::fabs(y), 2.0f) == 1.0f;
  if (x < 0 && std::trunc(y) != y) return kNaN;
  const double magnitude =
      portable::exp(static_cast<double>(y) * portable::log(std::fabs(static_cast<double>(x))));
  return static_cast<float>(x < 0 && odd_integer ? -magnitude : magnitude);
}

}  // namespace

float msl_unary(Builtin function, float x) {
  const double d = x;
  switch (function) {
    case Builtin::Exp:
      return static_cast<float>(portable::exp(d));
    case Builtin::Exp2:
      return static_cast<float>(portable::exp(d * kLn2));
    case Builtin::Exp10:
      return static_cast<float>(portable::exp(d * kLn10));
    case Builtin::Log:
      return static_cast<float>(portable::log(d));
    case Builtin::Log2:
      return static_cast<float>(portable::log(d) / kLn2);
    case Builtin::Log10:
      return static_cast<float>(portable::log(d) / kLn10);
    case Builtin::Sqrt:
      return std::sqrt(x);
    case Builtin::Rsqrt:
      return static_cast<float>(1.0 / std::sqrt(d));
    case Builtin::Sin:
    case Builtin::Cos:
    case Builtin::Tan: {
      if (!std::isfinite(x)) return kNaN;
      double sine = 0, cosine = 0;
      sine_and_cosine(x, sine, cosine);
      return static_cast<float>(function == Builtin::Sin   ? sine
                                : function == Builtin::Cos ? cosine
                                                           : sine / cosine);
    }
    case Builtin::Tanh:
      return std::isnan(x) ? x : tanh_of(x);
    case Builtin::Sinh:
    case Builtin::Cosh: {
      if (std::isnan(x)) return x;
      const double up = portable::exp(d), down = portable::exp(-d);
      return static_cast<float>(function == Builtin::Sinh ? (up - down) / 2 : (up + down) / 2);
    }
    case Builtin::Floor:
      return std::floor(x);
    case Builtin::Ceil:
      return std::ceil(x);
    case Builtin::Round:
      return std::round(x);
    case Builtin::Trunc:
      return std::trunc(x);
    case Builtin::Rint:
      return std::nearbyint(x);
    case Builtin::Fract:
      return std::isnan(x) ? x : std::fmin(x - std::floor(x), 0x1.fffffep-1f);
    case Builtin::Sign:
      if (std::isnan(x)) return 0.0f;
      return x > 0 ? 1.0f : x < 0 ? -1.0f : x;
    case Builtin::Saturate:
      return std::fmin(std::fmax(x, 0.0f), 1.0f);
    case Builtin::Fabs:
    case Builtin::Abs:
      return std::fabs(x);
    case Builtin::IsNan:
      return std::isnan(x) ? 1.0f : 0.0f;
    case Builtin::IsInf:
      return std::isinf(x) ? 1.0f : 0.0f;
    case Builtin::IsFinite:
      return std::isfinite(x) ? 1.0f : 0.0f;
    default:
      return kNaN;
  }
}

float msl_binary(Builtin function, float x, float y) {
  switch (function) {
    case Builtin::Pow:
      return pow_of(x, y);
    case Builtin::Powr:
      return x < 0 ? kNaN : pow_of(x, y);
    case Builtin::Fmin:
    case Builtin::Min:
      return std::fmin(x, y);
    case Builtin::Fmax:
    case Builtin::Max:
      return std::fmax(x, y);
    case Builtin::Fmod:
      return std::fmod(x, y);
    case Builtin::Copysign:
      return std::copysign(x, y);
    case Builtin::Step:
      return y < x ? 0.0f : 1.0f;
    default:
      return kNaN;
  }
}

float msl_ternary(Builtin function, float x, float y, float z) {
  switch (function) {
    case Builtin::Fma:
      return std::fma(x, y, z);
    case Builtin::Mix:
      return x + (y - x) * z;  // MSL's definition, each operation rounded
    case Builtin::Clamp:
      return std::fmin(std::fmax(x, y), z);
    default:
      return kNaN;
  }
}

}  // namespace engine::metal::detail
