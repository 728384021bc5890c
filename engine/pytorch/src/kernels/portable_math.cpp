// The series behind portable_math.h: Note [The same bits on every host]. Each function reduces
// its argument exactly (or with a split constant whose products are exact), then sums a Taylor
// series whose coefficients the compiler computes from exact integers.

#include "kernels/portable_math.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace engine::kernels::portable {
namespace {

// ln 2 split so that k * kLn2Hi is exact for every |k| < 2^11: kLn2Hi has 42 significant bits.
constexpr double kLn2Hi = 0x1.62e42fefa3800p-1;
constexpr double kLn2Lo = 0x1.ef35793c76730p-45;
constexpr double kInvLn2 = 0x1.71547652b82fep+0;
// pi / 2 in three parts, the first two of 33 significant bits: n * part is exact for |n| < 2^20.
constexpr double kPiOver2Part1 = 0x1.921fb54400000p+0;
constexpr double kPiOver2Part2 = 0x1.0b4611a600000p-34;
constexpr double kPiOver2Part3 = 0x1.3198a2e037073p-69;
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kInvSqrtPi = 0.5641895835477563;
constexpr double kSqrt2 = 1.4142135623730951;

// 1 / n! for n = 0 .. N - 1, each the correctly rounded quotient of two exact integers.
template <int N>
constexpr std::array<double, N> inverse_factorials() {
  std::array<double, N> result{};
  double factorial = 1;  // exact: 22! is the first factorial a double cannot hold
  for (int n = 0; n < N; ++n) {
    if (n > 0) factorial *= n;
    result[static_cast<std::size_t>(n)] = 1.0 / factorial;
  }
  return result;
}
constexpr auto kInverseFactorial = inverse_factorials<21>();

// 2 / (2k + 1) for k = 0 .. N - 1: the coefficients of 2 atanh(s) / s in powers of s^2.
template <int N>
constexpr std::array<double, N> atanh_coefficients() {
  std::array<double, N> result{};
  for (int k = 0; k < N; ++k) result[static_cast<std::size_t>(k)] = 2.0 / (2 * k + 1);
  return result;
}
constexpr auto kAtanhCoefficient = atanh_coefficients<14>();

double power_of_two(int k) {  // 2^k for -1022 <= k <= 1023, exactly
  return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
}

// y * 2^k with one rounding at most (only a subnormal result rounds).
double scale(double y, int k) {
  if (k > 1023) return y * 2.0 * power_of_two(k - 1);
  if (k < -1022) return y * power_of_two(k + 600) * power_of_two(-600);
  return y * power_of_two(k);
}

}  // namespace

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();  // past ln(DBL_MAX)
  if (x < -745.1332191019412) return 0.0;  // below half the smallest subnormal
  // x = k ln 2 + r with |r| <= ln 2 / 2, then exp(r) by its Taylor series to r^20 / 20!, far past
  // where the terms drop below the last bit (0.35^15 / 15! is 1e-19).
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double sum = kInverseFactorial.back();
  for (std::size_t n = kInverseFactorial.size() - 1; n-- > 0;) sum = sum * r + kInverseFactorial[n];
  return scale(sum, static_cast<int>(k));
}

double log(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;
  int exponent = 0;
  if (x < std::numeric_limits<double>::min()) {  // subnormal: make it normal first
    x *= 0x1p54;
    exponent = -54;
  }
  // x = 2^e m with m in [sqrt(1/2), sqrt(2)), f = m - 1 exactly (Sterbenz).
  const auto bits = std::bit_cast<std::uint64_t>(x);
  exponent += static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  double m = std::bit_cast<double>((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
  if (m > kSqrt2) {
    m *= 0.5;
    exponent += 1;
  }
  const double f = m - 1.0;
  // log(1 + f) = 2 atanh(s) with s = f / (2 + f), |s| < 0.172; with h = f^2 / 2 and
  // R = 2 s^2 / 3 + 2 s^4 / 5 + ..., the identity 2s = f - h + s h gives
  // log(1 + f) = f - h + s (h + R), whose leading f is exact.
  const double s = f / (2.0 + f);
  const double z = s * s;
  double series = kAtanhCoefficient.back();  // to z^13: 0.0296^13 / 27 is 1e-21
  for (std::size_t k = kAtanhCoefficient.size() - 1; k-- > 1;)
    series = series * z + kAtanhCoefficient[k];
  series *= z;
  const double half_square = 0.5 * f * f;
  const double e = exponent;
  return e * kLn2Hi + (f - (half_square - (s * (half_square + series) + e * kLn2Lo)));
}

void sin_cos(double x, double& sine, double& cosine) {
  // x = n pi/2 + r with |r| <= pi/4, then both Taylor series in r^2, to r^19 and r^20
  // (the next terms are below 1e-21).
  const double n = std::floor(x * kTwoOverPi + 0.5);
  const double r = ((x - n * kPiOver2Part1) - n * kPiOver2Part2) - n * kPiOver2Part3;
  const double z = r * r;
  double s = kInverseFactorial[19];  // sin r = r - r^3/3! + ... (signs alternate)
  for (int k = 17; k >= 1; k -= 2) s = -(s * z) + kInverseFactorial[static_cast<std::size_t>(k)];
  s *= r;
  double c = kInverseFactorial[20];  // cos r = 1 - r^2/2! + ...
  for (int k = 18; k >= 0; k -= 2) c = -(c * z) + kInverseFactorial[static_cast<std::size_t>(k)];
  switch (static_cast<std::int64_t>(n) & 3) {  // the quadrant
    case 0:
      sine = s, cosine = c;
      break;
    case 1:
      sine = c, cosine = -s;
      break;
    case 2:
      sine = -s, cosine = -c;
      break;
    default:
      sine = -c, cosine = s;
      break;
  }
}

float erf(float x) {
  const double a = std::fabs(static_cast<double>(x));
  if (std::isnan(a)) return x;
  // erfc(4) = 1.5e-8 is less than half a float unit below 1: erf rounds to +-1 from here on.
  if (a >= 4.0) return std::copysign(1.0f, x);
  double value = 0;
  if (a < 2.5) {
    // erf a = 2/sqrt(pi) sum (-1)^n a^(2n+1) / (n! (2n+1)); its largest term, at a = 2.5, is 200
    // times the sum, so the cancellation costs 8 of a double's 53 bits: float needs 24.
    const double minus_square = -a * a;
    double term = a;  // (-1)^n a^(2n+1) / n!
    double sum = a;
    for (int n = 1; n < 64; ++n) {
      term = term * minus_square / n;
      const double added = term / (2 * n + 1);
      sum += added;
      if (std::fabs(added) < 0x1p-60 * sum) break;
    }
    value = 2.0 * kInvSqrtPi * sum;
  } else {
    // erfc a = exp(-a^2) / sqrt(pi) / (a + (1/2) / (a + 1 / (a + (3/2) / (a + ...)))), Laplace's
    // continued fraction, 40 levels deep: within 1e-16 of erfc from a = 2.5 on.
    double fraction = a;
    for (int k = 40; k >= 1; --k) fraction = a + (k * 0.5) / fraction;
    value = 1.0 - exp(-a * a) * kInvSqrtPi / fraction;
  }
  return static_cast<float>(std::copysign(value, static_cast<double>(x)));
}

namespace {

// A double-double: hi + lo, |lo| at most half a unit of hi's last place; the product's rounding
// error is recovered exactly by a fused multiply-add, so 50 squarings still round to the double
// nearest the true power.
struct DoubleDouble {
  double hi, lo;
};

DoubleDouble times(DoubleDouble a, DoubleDouble b) {
  const double product = a.hi * b.hi;
  const double error = std::fma(a.hi, b.hi, -product) + (a.hi * b.lo + a.lo * b.hi);
  const double hi = product + error;
  return {hi, error - (hi - product)};
}

}  // namespace

double integer_power(double base, std::int64_t exponent) {
  DoubleDouble result{1.0, 0.0};
  for (DoubleDouble square{base, 0.0}; exponent > 0;
       exponent >>= 1, square = times(square, square)) {
    if ((exponent & 1) != 0) result = times(result, square);
  }
  return result.hi + result.lo;
}

}  // namespace engine::kernels::portable
