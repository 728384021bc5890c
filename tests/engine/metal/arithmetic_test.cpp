// The scalar and vector types and their arithmetic as MSL (C++) defines it: integers that wrap
// at their width, the usual arithmetic conversions, half rounded to binary16 after every
// operation, vectors component by component, swizzles, as_type, and the undefined operations
// reported instead of computed.

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "metal_test_support.h"

using metal_test::Buffer;
using metal_test::fault_of;
using metal_test::first_line;

namespace {

// Runs `body` in a one-thread kernel whose buffer 0 is `out`, after `prelude` at program scope.
template <typename T>
std::vector<T> compute(std::string_view body, std::size_t count, std::string_view prelude = "") {
  Buffer out = Buffer::zeros<T>(count);
  const std::string type = std::is_same_v<T, float> ? "float"
                           : std::is_same_v<T, int> ? "int"
                                                    : "uint";
  metal_test::run_1d(std::string(prelude) + "kernel void k(device " + type + "* out) {\n" +
                         std::string(body) + "\n}",
                     "k", {&out}, 1, 1);
  return out.values<T>();
}

}  // namespace

TEST_CASE("integers wrap at their width: char, short, int, uint and long") {
  CHECK(compute<int>("char c = 127; c += 1; out[0] = c;\n"
                     "uchar u = 250; u += 10; out[1] = u;\n"
                     "short s = 32767; s++; out[2] = s;\n"
                     "int i = 2147483647; i += 1; out[3] = i;\n"
                     "long l = 1; l <<= 40; out[4] = int(l >> 38);\n"
                     "ushort us = 0; us -= 1; out[5] = us;",
                     6) == std::vector<int>{-128, 4, -32768, -2147483647 - 1, 4, 65535});
  CHECK(compute<unsigned>("uint u = 0; u -= 1; out[0] = u; out[1] = 7u / 2u; out[2] = uint(-7 / 2);"
                          "out[3] = uint(-7 % 3); out[4] = 0xFFu & 0x0Fu; out[5] = ~0u >> 28;",
                          6) == std::vector<unsigned>{4294967295u, 3, static_cast<unsigned>(-3),
                                                      static_cast<unsigned>(-1), 15, 15});
}

TEST_CASE("the usual arithmetic conversions: int and uint meet as uint, ints and floats as float") {
  CHECK(compute<unsigned>("int a = -1; uint b = 1; out[0] = (a < b) ? 1 : 0; out[1] = a + b;", 2) ==
        std::vector<unsigned>{0, 0});  // -1 converts to 4294967295, which is not less than 1
  CHECK(compute<float>("int i = 3; out[0] = i / 2; out[1] = i / 2.0f; out[2] = float(7) / 2;", 3) ==
        std::vector<float>{1, 1.5f, 3.5f});
}

TEST_CASE("half is rounded to binary16 after every operation") {
  // 2049 is not a half: it rounds to 2048 (ties to even), and 2048 + 1 is 2048 again.
  CHECK(compute<float>("half h = 2048.0h; h = h + 1.0h; out[0] = h;\n"
                       "half third = 1.0h / 3.0h; out[1] = third;\n"
                       "half big = 65504.0h; big = big * 2.0h; out[2] = big;\n"
                       "out[3] = float(half(0.1f));",
                       4) == std::vector<float>{2048, 0.333251953125f,
                                                std::numeric_limits<float>::infinity(),
                                                0.0999755859375f});
}

TEST_CASE("vectors compute component by component, with scalars spread over them") {
  CHECK(
      compute<float>("float4 a = float4(1, 2, 3, 4); float4 b = a * 2 + float4(0.5f);\n"
                     "float2 c = b.zw - b.xy; float3 d = float3(c, 9);\n"
                     "out[0] = b.x; out[1] = b.w; out[2] = c.x; out[3] = d.z; out[4] = a[2];\n"
                     "a.yx = float2(7, 8); out[5] = a.x; out[6] = a.y; out[7] = dot(a, float4(1));",
                     8) == std::vector<float>{2.5f, 8.5f, 4, 9, 3, 8, 7, 22});
  CHECK(compute<int>(
            "int2 v = int2(5, -3); bool2 less = v < int2(0); out[0] = less.x; out[1] = less.y;\n"
            "out[2] = all(v != 0); out[3] = any(v > 10); uint3 u = uint3(1, 2, 3);\n"
            "out[4] = int(u.z + u.y); int4 w = int4(1, 2, 3, 4); w.wz += 10; out[5] = w.w;",
            6) == std::vector<int>{0, 1, 1, 0, 5, 14});
}

TEST_CASE("conversions truncate toward zero, and as_type keeps the bits") {
  CHECK(compute<int>("out[0] = int(-2.7f); out[1] = int(2.7f); out[2] = (int)1e9f;\n"
                     "out[3] = as_type<int>(1.0f); out[4] = int(as_type<float>(0x40400000));\n"
                     "out[5] = static_cast<int>(true) + int(uchar(300));",
                     6) == std::vector<int>{-2, 2, 1000000000, 0x3f800000, 3, 45});
}

TEST_CASE("pointers move by elements, and differences count elements") {
  CHECK(compute<int>("device int* p = out + 3; *p = 7; p[1] = 8; p -= 2; *p = int(p - out);\n"
                     "device int* q = &out[5]; out[0] = int(q - p);",
                     5) == std::vector<int>{4, 1, 0, 7, 8});
}

TEST_CASE("what MSL leaves undefined is reported, not computed") {
  const auto fault = [](std::string_view body) {
    return first_line(fault_of([&] { compute<int>(body, 1); }));
  };
  CHECK(fault("int zero = 0; out[0] = 1 / zero;") ==
        "program_source:2:26: error: thread 0 of the grid (thread 0 of threadgroup 0): integer "
        "division by zero (undefined in Metal)");
  CHECK(fault("int n = 33; out[0] = 1 << n;") ==
        "program_source:2:24: error: thread 0 of the grid (thread 0 of threadgroup 0): shift by "
        "the width of 'int' or more, or by a negative amount (undefined in Metal)");
  CHECK(fault("float big = 3e9f; out[0] = int(big);") ==
        "program_source:2:28: error: thread 0 of the grid (thread 0 of threadgroup 0): the value "
        "3000000000.000000 does not fit in 'int': converting it is undefined in Metal");
}

TEST_CASE("program-scope constants, constexpr locals, macros and auto are constants and types") {
  CHECK(compute<float>(
            "#define SCALE 2\n"
            "out[0] = kHalf * SCALE; constexpr int n = 3 * 4; float a[n]; out[1] = float(n);\n"
            "auto f = 1.5f; auto u = 7u; out[2] = f * float(u); a[n - 1] = 5; out[3] = a[11];\n"
            "out[4] = M_PI_F > 3.14f && M_PI_F < 3.15f ? 1 : 0;",
            5, "constant float kHalf = 0.5f;\n") == std::vector<float>{1, 12, 10.5f, 5, 1});
}
