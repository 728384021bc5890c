// SIMD-group functions over the 32 threads of a SIMD group, and the threads that are active:
// reductions and prefix sums, shuffles and broadcasts, and a shuffle that reads a thread Metal
// leaves undefined.

#include <doctest/doctest.h>

#include "metal_test_support.h"

using metal_test::Buffer;
using metal_test::fault_of;
using metal_test::first_line;

TEST_CASE("simd_sum, simd_max, simd_min and the prefix sums cover each SIMD group's threads") {
  Buffer out = Buffer::zeros<int>(64 * 5);
  metal_test::run_1d(R"(
    kernel void k(device int* out, uint i [[thread_position_in_grid]]) {
      int v = int(i);
      device int* o = out + 5 * i;
      o[0] = simd_sum(v); o[1] = simd_max(v); o[2] = simd_min(v);
      o[3] = simd_prefix_exclusive_sum(v); o[4] = simd_prefix_inclusive_sum(v);
    })",
                     "k", {&out}, 64, 64);
  const auto v = out.values<int>();
  CHECK(std::vector<int>(v.begin(), v.begin() + 5) == std::vector<int>{496, 31, 0, 0, 0});
  CHECK(std::vector<int>(v.begin() + 5 * 33, v.begin() + 5 * 34) ==
        std::vector<int>{1520, 63, 32, 32, 65});  // the second SIMD group: 32 + 33
}

TEST_CASE("a SIMD-group reduction sees only the threads active where it is called") {
  Buffer out = Buffer::zeros<float>(8);
  metal_test::run_1d(R"(
    kernel void k(device float* out, uint i [[thread_position_in_grid]]) {
      if (i % 2 == 1) out[i] = simd_sum(float(i));
    })",
                     "k", {&out}, 8, 8);
  CHECK(out.values<float>() == std::vector<float>{0, 16, 0, 16, 0, 16, 0, 16});
}

TEST_CASE("shuffles read another lane; down and up keep their own value past the edge") {
  Buffer out = Buffer::zeros<unsigned>(32 * 5);
  metal_test::run_1d(R"(
    kernel void k(device uint* out, uint i [[thread_position_in_grid]]) {
      device uint* o = out + 5 * i;
      o[0] = simd_shuffle(i, 3); o[1] = simd_shuffle_down(i, 4u); o[2] = simd_shuffle_up(i, 4u);
      o[3] = simd_shuffle_xor(i, 1u); o[4] = simd_broadcast(i * 10, 31);
    })",
                     "k", {&out}, 32, 32);
  const auto v = out.values<unsigned>();
  CHECK(std::vector<unsigned>(v.begin(), v.begin() + 5) == std::vector<unsigned>{3, 4, 0, 1, 310});
  CHECK(std::vector<unsigned>(v.begin() + 5 * 30, v.begin() + 5 * 31) ==
        std::vector<unsigned>{3, 30, 26, 31, 310});
}

TEST_CASE("a warp-style reduction with simd_shuffle_down sums a SIMD group in lane 0") {
  const std::string source = R"(
kernel void k(const device float* in, device float* out, uint i [[thread_position_in_grid]],
              uint lane [[thread_index_in_simdgroup]], uint simd [[simdgroup_index_in_threadgroup]]) {
  float v = in[i];
  for (ushort offset = 16; offset > 0; offset /= 2) v += simd_shuffle_down(v, offset);
  if (lane == 0) out[simd] = v;
})";
  Buffer in = Buffer::of<float>(std::vector<float>(64, 0.5f));
  Buffer out = Buffer::zeros<float>(2);
  metal_test::run_1d(source, "k", {&in, &out}, 64, 64);
  CHECK(out.values<float>() == std::vector<float>{16, 16});
  // With 40 threads the second SIMD group has 8: lane 0 would read lane 16, which it lacks.
  CHECK(first_line(fault_of([&] {
          metal_test::run_1d(source, "k", {&in, &out}, 40, 40);
        })) ==
        "program_source:5:58: error: thread 32 of the grid (thread 32 of threadgroup 0): "
        "simd_shuffle_down reads lane 16 of its SIMD group, which is not active here: Metal "
        "leaves that value undefined");
}

TEST_CASE("a shuffle from a thread that is not active is a fault, naming the lane") {
  Buffer out = Buffer::zeros<float>(32);
  const std::string fault = fault_of([&] {
    metal_test::run_1d(R"(
    kernel void k(device float* out, uint i [[thread_position_in_grid]]) {
      if (i < 16) out[i] = simd_shuffle_down(float(i), 16u);
    })",
                       "k", {&out}, 32, 32);
  });
  CHECK(first_line(fault) ==
        "program_source:3:28: error: thread 0 of the grid (thread 0 of threadgroup 0): "
        "simd_shuffle_down reads lane 16 of its SIMD group, which is not active here: Metal "
        "leaves that value undefined");
}

TEST_CASE("simd_all, simd_any and simd_broadcast_first look at the active threads") {
  Buffer out = Buffer::zeros<int>(3);
  metal_test::run_1d(R"(
    kernel void k(device int* out, uint i [[thread_position_in_grid]]) {
      if (i >= 4) {
        bool all_big = simd_all(i >= 4);
        bool any_odd = simd_any(i == 9);
        int first = simd_broadcast_first(int(i));
        if (i == 4) { out[0] = all_big; out[1] = any_odd; out[2] = first; }
      }
    })",
                     "k", {&out}, 8, 8);
  CHECK(out.values<int>() == std::vector<int>{1, 0, 4});
}

TEST_CASE("simd_product and vector SIMD functions work per component") {
  Buffer out = Buffer::zeros<float>(2 * 4);
  metal_test::run_1d(R"(
    kernel void k(device float* out, uint i [[thread_position_in_grid]]) {
      float2 v = float2(i % 2 == 0 ? 1.0f : 2.0f, float(i));
      float2 p = simd_product(v);
      float2 s = simd_sum(v);
      if (i < 2) { out[4 * i] = p.x; out[4 * i + 1] = p.y; out[4 * i + 2] = s.x; out[4 * i + 3] = s.y; }
    })",
                     "k", {&out}, 4, 4);
  CHECK(out.values<float>() == std::vector<float>{4, 0, 6, 6, 4, 0, 6, 6});
}
