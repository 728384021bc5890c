// Device and constant memory: accesses past a buffer's end, writes that race between threads
// (the classic `sum[0] += x`), the atomics that fix them, and what a kernel may not do with
// constant memory.

#include <doctest/doctest.h>

#include "metal_test_support.h"

using metal_test::Buffer;
using metal_test::fault_of;
using metal_test::first_line;

TEST_CASE("a write past a buffer's end names the buffer, the element and the thread") {
  Buffer out = Buffer::zeros<float>(16);
  out.label = "a tensor of 16 float32 values";
  Buffer val = Buffer::of<float>({1});
  const std::string fault = fault_of([&] {
    metal_test::run_1d(R"(
kernel void full(device float* out, constant float& val, uint idx [[thread_position_in_grid]]) {
  out[idx] = val;
})",
                       "full", {&out, &val}, 20, 8);
  });
  CHECK(fault ==
        "program_source:3:3: error: thread 16 of the grid (thread 0 of threadgroup 2): "
        "out-of-bounds write of out[16] (buffer(0): a tensor of 16 float32 values), past its end\n"
        "  out[idx] = val;\n"
        "  ^\n");
}

TEST_CASE("threads adding into one element without an atomic race, in a threadgroup or across") {
  Buffer in = Buffer::of<float>({1, 2, 3, 4});
  Buffer sum = Buffer::zeros<float>(1);
  const std::string source = R"(
kernel void sum(const device float* in, device float* sum, uint i [[thread_position_in_grid]]) {
  sum[0] += in[i];
})";
  CHECK(first_line(fault_of([&] {
          metal_test::run_1d(source, "sum", {&in, &sum}, 4, 4);
        })) ==
        "program_source:3:3: error: thread 0 of the grid (thread 0 of threadgroup 0): data race on "
        "device memory: sum[0] (buffer(1): a test buffer) is written here after other threads "
        "read it at line 3, with no threadgroup_barrier(mem_flags::mem_device) between them");
  CHECK(first_line(fault_of([&] {
          metal_test::run_1d(source, "sum", {&in, &sum}, 4, 1);
        })) ==
        "program_source:3:3: error: thread 1 of the grid (thread 0 of threadgroup 1): data race on "
        "device memory: sum[0] (buffer(1): a test buffer) is read here after thread 0 wrote it at "
        "line 3: threads of different threadgroups are never ordered within a dispatch (an atomic "
        "would be)");
}

TEST_CASE("atomic_fetch_add_explicit sums into one element in a fixed order") {
  Buffer in = Buffer::of<float>({0.1f, 0.2f, 0.3f, 0.4f, 0.5f});
  Buffer sum = Buffer::zeros<float>(1);
  Buffer counts = Buffer::zeros<int>(2);
  metal_test::run_1d(R"(
    kernel void sum(const device float* in, device atomic_float* sum, device atomic_int* counts,
                    uint i [[thread_position_in_grid]]) {
      atomic_fetch_add_explicit(sum, in[i], memory_order_relaxed);
      atomic_fetch_add_explicit(&counts[0], 1, memory_order_relaxed);
      atomic_fetch_max_explicit(&counts[1], int(i) * 3, memory_order_relaxed);
    })",
                     "sum", {&in, &sum, &counts}, 5, 2);
  CHECK(sum.values<float>()[0] == ((((0.1f + 0.2f) + 0.3f) + 0.4f) + 0.5f));
  CHECK(counts.values<int>() == std::vector<int>{5, 12});
}

TEST_CASE("each thread writing its own elements, even of one buffer bound twice, is no race") {
  Buffer x = Buffer::of<float>({1, 2, 3, 4});
  metal_test::run_1d(R"(
    kernel void scale(const device float* in, device float* out, uint i [[thread_position_in_grid]]) {
      out[i] = in[i] * 2;
    })",
                     "scale", {&x, &x}, 4, 2);
  CHECK(x.values<float>() == std::vector<float>{2, 4, 6, 8});
}

TEST_CASE("a buffer bound twice still shows a race between its two names") {
  Buffer x = Buffer::of<float>({1, 2, 3, 4});
  const std::string fault = fault_of([&] {
    metal_test::run_1d(R"(
kernel void shift(const device float* in, device float* out, uint i [[thread_position_in_grid]]) {
  out[i] = in[(i + 1) % 4];
})",
                       "shift", {&x, &x}, 4, 4);
  });
  CHECK(first_line(fault) ==
        "program_source:3:3: error: thread 0 of the grid (thread 0 of threadgroup 0): data race on "
        "device memory: out[0] (buffer(1): a test buffer) is written here after thread 3 read it "
        "at line 3, with no threadgroup_barrier(mem_flags::mem_device) between them");
}

TEST_CASE("a device barrier orders a threadgroup's accesses to device memory; compare-exchange") {
  Buffer data = Buffer::zeros<float>(4);
  Buffer out = Buffer::zeros<float>(4);
  Buffer flags = Buffer::zeros<int>(2);
  metal_test::run_1d(R"(
    kernel void k(device float* data, device float* out, device atomic_int* flags,
                  uint t [[thread_position_in_threadgroup]]) {
      data[t] = float(t);
      threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
      out[t] = data[t] + data[3 - t] * 10;  // another thread's write, after the barrier: ordered
      int expected = 0;
      bool won = atomic_compare_exchange_weak_explicit(&flags[0], &expected, int(t) + 1,
                                                       memory_order_relaxed, memory_order_relaxed);
      if (won) atomic_store_explicit(&flags[1], expected + 100, memory_order_relaxed);
    })",
                     "k", {&data, &out, &flags}, 4, 4);
  CHECK(out.values<float>() == std::vector<float>{30, 21, 12, 3});
  CHECK(flags.values<int>() == std::vector<int>{1, 100});  // thread 0 swapped first; the rest saw 1
}
