// What the front end says about source it cannot compile: Metal's compiler's form
// (program_source:LINE:COLUMN: error: ..., the line, a caret), clang's words for C++'s errors,
// and a message naming the construct for MSL the emulator does not support.

#include <doctest/doctest.h>

#include "metal_test_support.h"

using metal_test::compile_error;
using metal_test::first_line;

TEST_CASE("an error comes with its source line and a caret under its column") {
  CHECK(compile_error("What") ==
        "program_source:1:1: error: unknown type name 'What'\n"
        "What\n"
        "^\n");
  CHECK(compile_error("kernel void k(device float* out, uint i [[thread_position_in_grid]]) {\n"
                      "  out[j] = 1;\n"
                      "}") ==
        "program_source:2:7: error: use of undeclared identifier 'j'\n"
        "  out[j] = 1;\n"
        "      ^\n");
}

TEST_CASE("syntax errors are reported in clang's words") {
  const auto error_of = [](std::string_view body) {
    return first_line(
        compile_error("kernel void k(device float* x) {\n" + std::string(body) + "\n}"));
  };
  CHECK(error_of("x[0] = 1") == "program_source:3:1: error: expected ';' after expression");
  CHECK(error_of("float y = ;") == "program_source:2:11: error: expected expression");
  CHECK(error_of("if x[0] > 0 { }") == "program_source:2:4: error: expected '(' after 'if'");
  CHECK(error_of("break;") ==
        "program_source:2:1: error: 'break' statement not in loop or switch statement");
  CHECK(error_of("float a = 1, b") ==
        "program_source:3:1: error: expected ';' at end of declaration");
  CHECK(error_of("x[0] = 1.5q;") ==
        "program_source:2:8: error: invalid suffix 'q' on floating constant");
  CHECK(first_line(compile_error("kernel void k(device float* x) { x[0] = 1;")) ==
        "program_source:1:43: error: expected '}'");
  CHECK(first_line(compile_error("/* never closed")) ==
        "program_source:1:1: error: unterminated /* comment");
}

TEST_CASE("includes of Metal's headers and object-like macros are preprocessed") {
  CHECK(compile_error("#include <metal_stdlib>\n#include <metal_atomic>\nusing namespace metal;\n"
                      "#define TILE 16\n#define HALF (TILE / 2)\n"
                      "kernel void k(device float* x, uint i [[thread_position_in_grid]]) {\n"
                      "  threadgroup float t[TILE * TILE];\n  x[i] = HALF;\n}") == "compiled");
  CHECK(compile_error("#include \"my_header.h\"") ==
        "program_source:1:10: fatal error: 'my_header.h' file not found\n"
        "#include \"my_header.h\"\n"
        "         ^\n");
  CHECK(first_line(compile_error("#define SQUARE(x) ((x) * (x))")) ==
        "program_source:1:15: error: function-like macros (#define SQUARE(...)) are not supported "
        "by the emulator's Metal front end");
  CHECK(first_line(compile_error("#ifdef __METAL__\n#endif")) ==
        "program_source:1:2: error: conditional inclusion (#ifdef) is not supported by the "
        "emulator's Metal front end");
}

TEST_CASE("MSL the emulator does not support is refused by name") {
  CHECK(first_line(compile_error("template <typename T> kernel void k(device T* x) {}")) ==
        "program_source:1:1: error: templates are not supported by the emulator's Metal front end");
  CHECK(first_line(compile_error("struct P { float x; };")) ==
        "program_source:1:1: error: structs are not supported by the emulator's Metal front end");
  CHECK(
      first_line(compile_error("kernel void k(device float* x) { switch (0) { } }")) ==
      "program_source:1:34: error: switch statements are not supported by the emulator's Metal front end");
  CHECK(
      first_line(compile_error("kernel void k(device float4x4* m) {}")) ==
      "program_source:1:22: error: matrix types (float4x4) are not supported by the emulator's Metal front end");
  CHECK(first_line(compile_error("kernel void k(device double* x) {}")) ==
        "program_source:1:22: error: 'double' is not supported in Metal");
  CHECK(first_line(compile_error("kernel void k(device float* x) { x[0] = atan(x[1]); }")) ==
        "program_source:1:41: error: 'atan' is not supported by the emulator's Metal front end");
  CHECK(
      first_line(compile_error(
          "kernel void k(device float* x) { simdgroup_barrier(mem_flags::mem_none); }")) ==
      "program_source:1:34: error: 'simdgroup_barrier' is not supported by the emulator's Metal front end");
  CHECK(first_line(compile_error(
            "kernel void k(device float* x, threadgroup float* t [[threadgroup(0)]]) {}")) ==
        "program_source:1:55: error: threadgroup memory parameters ([[threadgroup(n)]]) are not "
        "supported by the emulator: declare a threadgroup array in the kernel instead");
}

TEST_CASE("type errors are reported in clang's words") {
  const auto error_of = [](std::string_view body) {
    return first_line(compile_error(
        "kernel void k(device float* x, constant float* c, uint i [[thread_position_in_grid]]) {\n" +
        std::string(body) + "\n}"));
  };
  CHECK(
      error_of("float4 v = int4(1);") ==
      "program_source:2:12: error: cannot initialize a variable of type 'float4' with an rvalue of type 'int4'");
  CHECK(
      error_of("float2 a = 0; float4 b = 0; b = a + b;") ==
      "program_source:2:35: error: cannot convert between vector values of different size ('float2' and 'float4')");
  CHECK(error_of("x[0] = x[1] % 2.0f;") ==
        "program_source:2:13: error: invalid operands to binary expression ('float' and 'float')");
  CHECK(error_of("c[0] = 1;") == "program_source:2:6: error: read-only variable is not assignable");
  CHECK(
      error_of("const float a = 1; a = 2;") ==
      "program_source:2:22: error: cannot assign to variable 'a' with const-qualified type 'const float'");
  CHECK(error_of("float4 v = 0; v.xx = float2(1);") ==
        "program_source:2:20: error: vector is not assignable (contains duplicate components)");
  CHECK(error_of("float4 v = 0; x[0] = v.q;") ==
        "program_source:2:22: error: illegal vector component name 'q'");
  CHECK(error_of("float2 v = 0; x[0] = v.z;") ==
        "program_source:2:22: error: vector component access exceeds type 'float2'");
  CHECK(error_of("float f = 0; x[0] = f[1];") ==
        "program_source:2:21: error: subscripted value is not an array, pointer, or vector");
  CHECK(
      error_of("float3 v = float3(1, 2);") ==
      "program_source:2:12: error: too few elements in vector initialization (expected 3 elements, have 2)");
  CHECK(error_of("x[0] = exp(x);") ==
        "program_source:2:8: error: no matching function for call to 'exp'");
  CHECK(
      error_of("threadgroup float t[4] = 0;") ==
      "program_source:2:19: error: variables in the threadgroup address space cannot have an initializer");
  CHECK(error_of("float a[i];") ==
        "program_source:2:9: error: array size is not an integral constant expression");
  CHECK(
      error_of("if (float2(1)) {}") ==
      "program_source:2:5: error: statement requires expression of scalar type ('float2' invalid)");
}

TEST_CASE("a kernel's signature is checked as Metal checks it") {
  CHECK(first_line(compile_error("kernel float k(device float* x) { return 0; }")) ==
        "program_source:1:14: error: kernel function 'k' must return void");
  CHECK(first_line(compile_error("kernel void k(float x) {}")) ==
        "program_source:1:15: error: invalid type 'float' for buffer declaration: a kernel's "
        "buffer is a pointer or a reference in the device or constant address space");
  CHECK(
      first_line(compile_error(
          "kernel void k(device float* x, float i [[thread_position_in_grid]]) {}")) ==
      "program_source:1:42: error: type 'float' is not valid for attribute 'thread_position_in_grid'");
  CHECK(
      first_line(compile_error(
          "kernel void k(device float* x, uint3 i [[thread_index_in_simdgroup]]) {}")) ==
      "program_source:1:42: error: type 'uint3' is not valid for attribute 'thread_index_in_simdgroup'");
  CHECK(first_line(compile_error(
            "kernel void k(device float* a [[buffer(1)]], device float* b [[buffer(1)]]) {}")) ==
        "program_source:1:46: error: buffer index 1 is used by both 'a' and 'b'");
  CHECK(first_line(compile_error("void f() { f(); }")) ==
        "program_source:1:12: error: recursive calls are not allowed in Metal ('f' calls itself)");
  CHECK(first_line(compile_error(
            "float f(float x) { return x; } kernel void k(device float* x) { x[0] = f(x); }")) ==
        "program_source:1:72: error: no matching function for call to 'f'");
  CHECK(
      first_line(compile_error("void f() { threadgroup float t[4]; }")) ==
      "program_source:1:12: error: threadgroup variables can only be declared in a kernel function");
}

TEST_CASE("nesting deeper than clang's default bracket depth, and huge arrays, are refused") {
  const std::string deep = "kernel void k(device float* x) { x[0] = " + std::string(300, '(') +
                           "1" + std::string(300, ')') + "; }";
  CHECK(first_line(compile_error(deep)) ==
        "program_source:1:296: fatal error: bracket nesting level exceeded maximum of 256");
  std::string chain = "kernel void k(device float* x) { x[0] = 0";
  for (int i = 0; i < 300; ++i) chain += " + 1";
  CHECK(first_line(compile_error(chain + "; }"))
            .ends_with("bracket nesting level exceeded maximum of 256"));
  CHECK(
      first_line(compile_error("kernel void k(device float* x) { float a[4096][4096][2]; }")) ==
      "program_source:1:42: error: array is too large for the emulator (more than 2^24 elements)");
}
