// Control flow in lockstep: each thread takes its own path through if, the loops, break,
// continue and return, helper functions and the short-circuit operators.

#include <doctest/doctest.h>

#include "metal_test_support.h"

using metal_test::Buffer;

TEST_CASE("if and else run each thread down its own branch") {
  Buffer out = Buffer::zeros<int>(8);
  metal_test::run_1d(R"(
    kernel void k(device int* out, uint i [[thread_position_in_grid]]) {
      if (i % 2 == 0) { out[i] = 1; } else if (i < 5) { out[i] = 2; } else out[i] = 3;
    })",
                     "k", {&out}, 8, 8);
  CHECK(out.values<int>() == std::vector<int>{1, 2, 1, 2, 1, 3, 1, 3});
}

TEST_CASE("for, while and do-while loops run each thread as many times as its own condition says") {
  Buffer out = Buffer::zeros<int>(4 * 3);
  metal_test::run_1d(R"(
    kernel void k(device int* out, uint i [[thread_position_in_grid]]) {
      int a = 0;
      for (uint j = 0; j < i; ++j) a += 2;
      int b = 0, n = int(i);
      while (n > 0) { b += n; n--; }
      int c = 0;
      do { c += 1; } while (c < int(i));
      out[3 * i] = a; out[3 * i + 1] = b; out[3 * i + 2] = c;
    })",
                     "k", {&out}, 4, 4);
  CHECK(out.values<int>() == std::vector<int>{0, 0, 1, 2, 1, 1, 4, 3, 2, 6, 6, 3});
}

TEST_CASE("break leaves the loop and continue skips to the next iteration, thread by thread") {
  Buffer out = Buffer::zeros<int>(6);
  metal_test::run_1d(R"(
    kernel void k(device int* out, uint i [[thread_position_in_grid]]) {
      int sum = 0;
      for (int j = 0; j < 10; j++) {
        if (j == int(i)) break;
        if (j % 2 == 1) continue;
        sum += j;
      }
      out[i] = sum;
    })",
                     "k", {&out}, 6, 6);
  CHECK(out.values<int>() == std::vector<int>{0, 0, 0, 2, 2, 6});
}

TEST_CASE("a thread that returns early does nothing more; the others carry on") {
  Buffer out = Buffer::of<float>({-1, -1, -1, -1, -1});
  Buffer n = Buffer::of<unsigned>({3});
  metal_test::run_1d(R"(
    kernel void k(device float* out, constant uint& n, uint i [[thread_position_in_grid]]) {
      if (i >= n) return;
      out[i] = float(i) * 0.5f;
    })",
                     "k", {&out, &n}, 5, 5);
  CHECK(out.values<float>() == std::vector<float>{0, 0.5f, 1, -1, -1});
}

TEST_CASE("helper functions take values, references and pointers, and return per thread") {
  Buffer out = Buffer::zeros<float>(4);
  metal_test::run_1d(R"(
    float square(float x) { return x * x; }
    void bump(thread float& x, float by) { x += by; }
    float first(const device float* p) { return p[0]; }
    int sign_of(int v) { if (v < 0) return -1; if (v == 0) return 0; return 1; }
    kernel void k(device float* out, uint i [[thread_position_in_grid]]) {
      float v = square(float(i));
      bump(v, 0.25f);
      out[i] = v + float(sign_of(int(i) - 2)) + first(out + i);
    })",
                     "k", {&out}, 4, 4);
  CHECK(out.values<float>() == std::vector<float>{-0.75f, 0.25f, 4.25f, 10.25f});
}

TEST_CASE("&&, || and ?: evaluate their right side only for the threads it decides") {
  Buffer in = Buffer::of<float>({5, -2, 7});
  Buffer out = Buffer::zeros<float>(4);
  // Thread 3 must not read in[3]: the guards keep it from reading past the end.
  metal_test::run_1d(R"(
    kernel void k(const device float* in, device float* out, uint i [[thread_position_in_grid]]) {
      bool positive = i < 3 && in[i] > 0;
      bool outside = i >= 3 || in[i] < 0;
      out[i] = (positive ? 10.0f : 0.0f) + (outside ? 1.0f : 0.0f) + (i < 3 ? in[i] : 100.0f);
    })",
                     "k", {&in, &out}, 4, 4);
  CHECK(out.values<float>() == std::vector<float>{15, -1, 17, 101});
}

TEST_CASE("a loop that never ends is stopped with the line of the loop") {
  Buffer out = Buffer::zeros<unsigned>(1);
  const std::string fault = metal_test::fault_of([&] {
    metal_test::run_1d(R"(
    kernel void k(device uint* out, uint i [[thread_position_in_grid]]) {
      for (uint j = 10; j >= 0; j--) out[0] = j;
    })",
                       "k", {&out}, 1, 1);
  });
  CHECK(metal_test::first_line(fault) ==
        "program_source:3:7: error: thread 0 of the grid (thread 0 of threadgroup 0): the loop "
        "has run 1048576 times without ending for this thread: a loop that never ends? (on "
        "a GPU, the command buffer would time out)");
}
