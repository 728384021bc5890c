#pragma once
// Internal: the transcendental functions the kernels and the random-number samplers need,
// computed by the engine itself from additions, multiplications and divisions only.
//
// Note [The same bits on every host]
// A documented output must not depend on the computer that prints it. IEEE 754 rounds each
// addition, multiplication, division, square root and fused multiply-add exactly, so a
// computation made of those, in an order fixed by the code and compiled with
// -ffp-contract=off (no multiply-add fused behind the code's back), gives the same bits on
// x86-64 and arm64, with g++ and clang, at any SIMD width. The C library's exp, log, sin, cos
// and erf do not: glibc picks an FMA or an SSE2 variant of some at run time, builds others
// with contracted multiply-adds on arm64, and macOS has a library of its own, so their last
// bits differ between hosts (rarely, but a training run evaluates millions of them).
//
// These are straightforward series, accurate to about one unit in the last place of a double:
// rounded to float, which is what the kernels keep, they agree with a correctly rounded result
// except in the rare case of a value within about 1e-16 of half a float unit.

#include <cstdint>

namespace engine::kernels::portable {

double exp(double x);
double log(double x);
// Both at once, as Box-Muller uses them. Accurate for |x| up to about 1e5 (the samplers pass
// angles below 2 pi); beyond that the argument reduction loses digits, deterministically.
void sin_cos(double x, double& sine, double& cosine);
// The error function of a float, rounded to float (GELU's kernel).
float erf(float x);
// base to the power exponent (>= 0), as Python's base ** exponent for Adam's bias corrections:
// by squaring, in double-double precision, so that it rounds as the true power does.
double integer_power(double base, std::int64_t exponent);

// Float versions through double, where the sums above keep their accuracy.
inline float expf(float x) { return static_cast<float>(exp(x)); }
inline float logf(float x) { return static_cast<float>(log(x)); }

}  // namespace engine::kernels::portable
