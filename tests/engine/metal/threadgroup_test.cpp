// Threadgroup memory and barriers: a reduction that needs them works; each way of getting them
// wrong (a missing barrier, a barrier some threads skip, reading what no thread wrote, an index
// past an array's end) stops the kernel with the line and the thread.

#include <doctest/doctest.h>

#include <numeric>

#include "metal_test_support.h"

using metal_test::Buffer;
using metal_test::fault_of;
using metal_test::first_line;

namespace {

// A tree reduction in threadgroup memory: each threadgroup of 64 threads sums 64 values.
constexpr std::string_view kReduce = R"(
kernel void reduce(const device float* in, device float* out,
                   uint i [[thread_position_in_grid]], uint t [[thread_position_in_threadgroup]],
                   uint g [[threadgroup_position_in_grid]]) {
  threadgroup float partial[64];
  partial[t] = in[i];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint stride = 32; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  if (t == 0) out[g] = partial[0];
}
)";

std::vector<float> iota_floats(int n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

}  // namespace

TEST_CASE("a reduction in threadgroup memory with barriers sums each threadgroup's values") {
  Buffer in = Buffer::of(iota_floats(128));
  Buffer out = Buffer::zeros<float>(2);
  const auto work = metal_test::run_1d(kReduce, "reduce", {&in, &out}, 128, 64);
  CHECK(out.values<float>() == std::vector<float>{2016, 6112});
  CHECK(work.barriers == 2 * 7);  // seven barriers in each of the two threadgroups
  CHECK(work.threadgroup_memory == 256);
}

TEST_CASE("without the barrier, a thread reads what another wrote: a race, with both lines") {
  std::string source(kReduce);
  const std::string first_barrier = "  threadgroup_barrier(mem_flags::mem_threadgroup);\n  for";
  source.replace(source.find(first_barrier), first_barrier.size(), "  for");
  Buffer in = Buffer::of(iota_floats(64));
  Buffer out = Buffer::zeros<float>(1);
  const std::string fault = fault_of([&] {
    metal_test::run_1d(source, "reduce", {&in, &out}, 64, 64);
  });
  CHECK(
      fault ==
      "program_source:8:35: error: thread 0 of the grid (thread 0 of threadgroup 0): data race on "
      "threadgroup memory: partial[32] (threadgroup float [64]) is read here after thread 32 "
      "wrote it at line 6, with no threadgroup_barrier(mem_flags::mem_threadgroup) between them\n"
      "    if (t < stride) partial[t] += partial[t + stride];\n"
      "                                  ^\n");
}

TEST_CASE("a barrier that some threads never reach names a thread that misses it and why") {
  const std::string source = R"(
kernel void k(device float* out, constant uint& n, uint i [[thread_position_in_grid]],
              uint t [[thread_position_in_threadgroup]]) {
  threadgroup float tile[32];
  if (i >= n) return;
  tile[t] = out[i];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[i] = tile[31 - t];
})";
  Buffer out = Buffer::zeros<float>(32);
  Buffer n = Buffer::of<unsigned>({30});
  const std::string fault = fault_of([&] { metal_test::run_1d(source, "k", {&out, &n}, 32, 32); });
  CHECK(first_line(fault) ==
        "program_source:7:3: error: thread 30 of the grid (thread 30 of threadgroup 0): "
        "threadgroup_barrier is reached by 30 of the 32 threads of the threadgroup, but every "
        "thread must reach it; this one does not: it returned at line 5");
}

TEST_CASE("a barrier inside a branch that only some threads take is reported with the branch") {
  const std::string source = R"(
kernel void k(device float* out, uint t [[thread_position_in_threadgroup]]) {
  threadgroup float tile[8];
  tile[t] = 1;
  if (t < 4) {
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[t] = tile[t + 4];
  }
})";
  Buffer out = Buffer::zeros<float>(8);
  const std::string fault = fault_of([&] { metal_test::run_1d(source, "k", {&out}, 8, 8); });
  CHECK(first_line(fault) ==
        "program_source:6:5: error: thread 4 of the grid (thread 4 of threadgroup 0): "
        "threadgroup_barrier is reached by 4 of the 8 threads of the threadgroup, but every "
        "thread must reach it; this one does not: it is not in the if at line 5");
}

TEST_CASE("a barrier in a branch every thread takes is a barrier like any other") {
  const std::string source = R"(
kernel void k(device float* out, uint t [[thread_position_in_threadgroup]],
              uint size [[threads_per_threadgroup]]) {
  threadgroup float tile[8];
  tile[t] = float(t);
  if (size == 8) threadgroup_barrier(mem_flags::mem_threadgroup);
  out[t] = tile[7 - t];
})";
  Buffer out = Buffer::zeros<float>(8);
  metal_test::run_1d(source, "k", {&out}, 8, 8);
  CHECK(out.values<float>() == std::vector<float>{7, 6, 5, 4, 3, 2, 1, 0});
}

TEST_CASE("reading threadgroup memory that no thread of the threadgroup wrote is reported") {
  const std::string source = R"(
kernel void k(device float* out, uint t [[thread_position_in_threadgroup]]) {
  threadgroup float tile[4];
  if (t > 0) tile[t] = 1;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[t] = tile[0];
})";
  Buffer out = Buffer::zeros<float>(4);
  const std::string fault = fault_of([&] { metal_test::run_1d(source, "k", {&out}, 4, 4); });
  CHECK(first_line(fault) ==
        "program_source:6:12: error: thread 0 of the grid (thread 0 of threadgroup 0): read of "
        "uninitialized threadgroup memory: no thread of this threadgroup wrote tile[0] "
        "(threadgroup float [4]) (threadgroup memory starts undefined)");
}

TEST_CASE("an index past one dimension of a threadgroup array is out of bounds, though inside it") {
  const std::string source = R"(
kernel void k(device float* out, uint2 t [[thread_position_in_threadgroup]]) {
  threadgroup float tile[4][4];
  tile[t.y][t.x + 1] = 1;
})";
  Buffer out = Buffer::zeros<float>(1);
  const std::string fault = fault_of([&] {
    metal_test::run(source, "k", {&out}, {4, 4, 1}, {4, 4, 1});
  });
  CHECK(first_line(fault) ==
        "program_source:4:3: error: thread (3, 0) of the grid (thread (3, 0) of threadgroup "
        "(0, 0)): index 4 is out of bounds of an array of 4 in tile (threadgroup float [4][4])");
}

TEST_CASE("threadgroup atomics and an atomic per threadgroup count what every thread adds") {
  const std::string source = R"(
kernel void count(device atomic_uint* total, uint t [[thread_position_in_threadgroup]]) {
  threadgroup atomic_uint local;
  if (t == 0) atomic_store_explicit(&local, 0u, memory_order_relaxed);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  atomic_fetch_add_explicit(&local, 1u, memory_order_relaxed);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (t == 0) atomic_fetch_add_explicit(total, atomic_load_explicit(&local, memory_order_relaxed), memory_order_relaxed);
})";
  Buffer total = Buffer::zeros<unsigned>(1);
  const auto work = metal_test::run_1d(source, "count", {&total}, 100, 32);
  CHECK(total.values<unsigned>() == std::vector<unsigned>{100});
  CHECK(work.threadgroups == 4);
}
