// The engine's own exp, log, sin, cos and erf (Note [The same bits on every host], engine/pytorch/src/
// kernels/portable_math.h): as accurate as the C library's, which they replace because its last
// bits differ between hosts. Compared here with the long double functions, whose extra bits
// make them the more exact reference on x86-64 and arm64 alike.

#include "kernels/portable_math.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace portable = engine::kernels::portable;

namespace {

// Units in the last place between two doubles of one sign.
std::int64_t ulps(double a, double b) {
  return std::abs(std::bit_cast<std::int64_t>(a) - std::bit_cast<std::int64_t>(b));
}

}  // namespace

TEST_CASE("exp, log, sin and cos are within two units in the last place of a double") {
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> exponent(-700, 700), decades(-300, 300), angle(0, 6.3);
  std::int64_t worst_exp = 0, worst_log = 0, worst_sin = 0, worst_cos = 0;
  for (int i = 0; i < 100000; ++i) {
    const double x = exponent(random), y = std::pow(10.0, decades(random)), t = angle(random);
    worst_exp = std::max(
        worst_exp,
        ulps(portable::exp(x), static_cast<double>(std::exp(static_cast<long double>(x)))));
    worst_log = std::max(
        worst_log,
        ulps(portable::log(y), static_cast<double>(std::log(static_cast<long double>(y)))));
    double sine = 0, cosine = 0;
    portable::sin_cos(t, sine, cosine);
    // Near their zeros a relative measure means nothing; the angles there are few.
    if (std::abs(sine) > 1e-3)
      worst_sin = std::max(worst_sin,
                           ulps(sine, static_cast<double>(std::sin(static_cast<long double>(t)))));
    if (std::abs(cosine) > 1e-3)
      worst_cos = std::max(
          worst_cos, ulps(cosine, static_cast<double>(std::cos(static_cast<long double>(t)))));
  }
  CHECK(worst_exp <= 2);
  CHECK(worst_log <= 2);
  CHECK(worst_sin <= 2);
  CHECK(worst_cos <= 2);
}

TEST_CASE(
    "the float functions round as the exact values do, across the range GELU and softmax use") {
  std::mt19937 random(2);
  std::uniform_real_distribution<float> x(-8.0f, 8.0f);
  int differ = 0;
  for (int i = 0; i < 100000; ++i) {
    const float v = x(random);
    differ += portable::erf(v) != static_cast<float>(std::erf(static_cast<long double>(v))) ? 1 : 0;
    differ +=
        portable::expf(v) != static_cast<float>(std::exp(static_cast<long double>(v))) ? 1 : 0;
    const float positive = std::abs(v) + 1e-3f;
    differ +=
        portable::logf(positive) != static_cast<float>(std::log(static_cast<long double>(positive)))
            ? 1
            : 0;
  }
  CHECK(differ == 0);
}

TEST_CASE("the edges: infinities, zeros, NaN, subnormals") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(portable::exp(1000) == inf);
  CHECK(portable::exp(-1000) == 0.0);
  CHECK(portable::exp(-745.0) > 0.0);  // the smallest subnormal's neighbourhood
  CHECK(portable::log(0.0) == -inf);
  CHECK(std::isnan(portable::log(-1.0)));
  CHECK(portable::log(inf) == inf);
  CHECK(std::abs(portable::log(std::numeric_limits<double>::denorm_min()) + 744.4400719213812) <
        1e-12);
  CHECK(std::isnan(portable::exp(std::nan(""))));
  CHECK(portable::erf(5.0f) == 1.0f);
  CHECK(portable::erf(-5.0f) == -1.0f);
  CHECK(portable::erf(0.0f) == 0.0f);
  CHECK(portable::integer_power(0.9, 0) == 1.0);
  CHECK(portable::integer_power(0.5, 10) == 1.0 / 1024);
  for (const std::int64_t step : {1, 7, 100, 1000, 54321}) {
    CAPTURE(step);
    CHECK(ulps(portable::integer_power(0.999, step),
               static_cast<double>(std::pow(static_cast<long double>(0.999),
                                            static_cast<long double>(step)))) <= 1);
  }
}
