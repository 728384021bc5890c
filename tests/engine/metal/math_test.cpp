// Metal's math functions, computed by the engine's own series so that every host gives the same
// bits: each value here is the float nearest the true result.

#include <doctest/doctest.h>

#include <cmath>

#include "metal_test_support.h"

using metal_test::Buffer;

namespace {

std::vector<float> compute(std::string_view body, std::size_t count) {
  Buffer out = Buffer::zeros<float>(count);
  metal_test::run_1d(
      "#include <metal_stdlib>\nusing namespace metal;\nkernel void k(device float* out) {\n" +
          std::string(body) + "\n}",
      "k", {&out}, 1, 1);
  return out.values<float>();
}

}  // namespace

TEST_CASE("transcendental functions give the float nearest the true value") {
  CHECK(
      compute(
          "out[0] = exp(1.0f); out[1] = log(2.0f); out[2] = sin(1.0f); out[3] = cos(1.0f);\n"
          "out[4] = tanh(0.5f); out[5] = sqrt(2.0f); out[6] = rsqrt(2.0f); out[7] = pow(2.0f, 0.5f);\n"
          "out[8] = exp2(3.5f); out[9] = log10(1000.0f); out[10] = metal::precise::exp(1.0f);",
          11) == std::vector<float>{2.71828175f, 0.693147182f, 0.841470957f, 0.540302277f,
                                    0.462117165f, 1.41421354f, 0.707106769f, 1.41421354f,
                                    11.3137083f, 3.0f, 2.71828175f});
}

TEST_CASE("a GELU written with tanh computes the tanh approximation") {
  CHECK(compute("float x = 1.2f;\n"
                "out[0] = 0.5f * x * (1.0f + tanh(0.7978845608f * (x + 0.044715f * x * x * x)));",
                1)[0] == doctest::Approx(1.06170273).epsilon(1e-7));
}

TEST_CASE("rounding, clamping, selecting and the NaN tests behave as MSL defines them") {
  CHECK(
      compute(
          "out[0] = floor(-1.5f); out[1] = ceil(-1.5f); out[2] = round(2.5f); out[3] = rint(2.5f);\n"
          "out[4] = trunc(-2.7f); out[5] = fract(-1.25f); out[6] = clamp(5.0f, 0.0f, 1.0f);\n"
          "out[7] = mix(2.0f, 4.0f, 0.25f); out[8] = step(1.0f, 0.5f); out[9] = sign(-3.0f);\n"
          "out[10] = fma(2.0f, 3.0f, 1.0f); out[11] = select(1.0f, 2.0f, true);\n"
          "out[12] = isnan(NAN) ? 1 : 0; out[13] = isinf(INFINITY) ? 1 : 0; out[14] = max(-0.5f, NAN);\n"
          "out[15] = abs(-7) + min(3, -4) + max(2u, 9u); out[16] = saturate(1.5f); out[17] = fmod(7.5f, 2.0f);",
          18) ==
      std::vector<float>{-2, -1, 3, 2, -2, 0.75f, 1, 2.5f, 0, -1, 7, 2, 1, 1, -0.5f, 12, 1, 1.5f});
}

TEST_CASE("vector math works per component, and dot, length and normalize combine them") {
  CHECK(
      compute(
          "float3 v = float3(3, 4, 12);\n"
          "out[0] = length(v); out[1] = dot(v, float3(1, 1, 1)); float3 n = normalize(float3(0, 3, 4));\n"
          "out[2] = n.y; out[3] = n.z; float2 e = exp(float2(0, 1)); out[4] = e.x; out[5] = e.y;\n"
          "out[6] = popcount(0xF0F0u);",
          7) == std::vector<float>{13, 19, 0.6f, 0.8f, 1, 2.71828175f, 8});
}

TEST_CASE("half math is computed in float and rounded to half") {
  CHECK(
      compute(
          "half h = exp(1.0h); out[0] = h; half2 v = half2(1.0h, 3.0h) / 3.0h; out[1] = v.x; out[2] = v.y;",
          3) == std::vector<float>{2.71875f, 0.333251953125f, 1});
}
