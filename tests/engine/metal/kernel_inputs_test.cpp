// The attributes that give a kernel's parameters their thread's place in the dispatch, in one,
// two and three dimensions, and the smaller threadgroups at the far edges of a grid that the
// threadgroup size does not divide (Apple GPUs run them: nonuniform threadgroups).

#include <doctest/doctest.h>

#include "metal_test_support.h"

using metal_test::Buffer;

TEST_CASE("one dimension: grid, threadgroup and SIMD-group positions") {
  Buffer out = Buffer::zeros<unsigned>(70 * 6);
  metal_test::run_1d(R"(
    kernel void k(device uint* out, uint i [[thread_position_in_grid]],
                  uint t [[thread_position_in_threadgroup]], uint g [[threadgroup_position_in_grid]],
                  uint size [[threads_per_threadgroup]], uint lane [[thread_index_in_simdgroup]],
                  uint simd [[simdgroup_index_in_threadgroup]]) {
      device uint* o = out + 6 * i;
      o[0] = i; o[1] = t; o[2] = g; o[3] = size; o[4] = lane; o[5] = simd;
    })",
                     "k", {&out}, 70, 64);
  const auto v = out.values<unsigned>();
  const auto row = [&](int i) {
    return std::vector<unsigned>(v.begin() + 6 * i, v.begin() + 6 * i + 6);
  };
  CHECK(row(0) == std::vector<unsigned>{0, 0, 0, 64, 0, 0});
  CHECK(row(40) == std::vector<unsigned>{40, 40, 0, 64, 8, 1});
  CHECK(row(69) == std::vector<unsigned>{69, 5, 1, 6, 5, 0});  // the last threadgroup has 6 threads
}

TEST_CASE("two and three dimensions: vector positions and the grid's sizes") {
  Buffer out = Buffer::zeros<unsigned>(5 * 3 * 2 * 9);
  metal_test::run(R"(
    kernel void k(device uint* out, uint3 p [[thread_position_in_grid]],
                  uint3 t [[thread_position_in_threadgroup]], ushort3 g [[threadgroup_position_in_grid]],
                  uint2 grid [[threads_per_grid]], uint3 groups [[threadgroups_per_grid]],
                  uint index [[thread_index_in_threadgroup]]) {
      device uint* o = out + 9 * (p.x + 5 * (p.y + 3 * p.z));
      o[0] = t.x; o[1] = t.y; o[2] = t.z; o[3] = g.x; o[4] = g.y; o[5] = g.z;
      o[6] = grid.x * grid.y; o[7] = groups.x * 100 + groups.y * 10 + groups.z; o[8] = index;
    })",
                  "k", {&out}, {5, 3, 2}, {2, 2, 2});
  const auto v = out.values<unsigned>();
  const auto at = [&](int x, int y, int z) {
    const auto o = 9 * (x + 5 * (y + 3 * z));
    return std::vector<unsigned>(v.begin() + o, v.begin() + o + 9);
  };
  CHECK(at(3, 1, 1) == std::vector<unsigned>{1, 1, 1, 1, 0, 0, 15, 321, 7});
  CHECK(at(4, 2, 0) == std::vector<unsigned>{0, 0, 0, 2, 1, 0, 15, 321, 0});
}

TEST_CASE("a scalar position in a two-dimensional grid is the x coordinate") {
  Buffer out = Buffer::zeros<unsigned>(4);
  metal_test::run(R"(
    kernel void k(device atomic_uint* out, uint x [[thread_position_in_grid]]) {
      atomic_fetch_add_explicit(&out[x], 1u, memory_order_relaxed);
    })",
                  "k", {&out}, {4, 3, 1}, {4, 1, 1});
  CHECK(out.values<unsigned>() == std::vector<unsigned>{3, 3, 3, 3});
}
