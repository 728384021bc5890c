// What a dispatch counts for the cost model: SIMD-group instruction issues, the 128-byte lines
// each load or store moves (coalescing), the lines the whole dispatch touches, barriers and
// atomics (Note [Counting a dispatch's work] in src/work_counter.h).

#include <doctest/doctest.h>

#include "metal_test_support.h"

using metal_test::Buffer;

namespace {

constexpr std::string_view kCopy = R"(
kernel void copy(const device float* in, device float* out, constant uint& stride,
                 uint i [[thread_position_in_grid]]) {
  out[i] = in[i * stride];
}
)";

}  // namespace

TEST_CASE("consecutive threads reading consecutive floats move one line per SIMD group") {
  Buffer in = Buffer::zeros<float>(1024 * 32);
  Buffer out = Buffer::zeros<float>(1024);
  Buffer stride = Buffer::of<unsigned>({1});
  const auto work = metal_test::run_1d(kCopy, "copy", {&in, &out, &stride}, 1024, 256);
  // 32 SIMD groups, each reading 32 floats (one line) and writing 32 (one line); the stride is
  // read once per thread, the same line for all (one per SIMD group).
  CHECK(work.device_transaction_bytes == 32 * (1 + 1 + 1) * 128);
  CHECK(work.device_footprint_bytes == (32 + 32 + 1) * 128);
  CHECK(work.threadgroups == 4);
}

TEST_CASE("a strided read moves a line per thread: no coalescing") {
  Buffer in = Buffer::zeros<float>(1024 * 32);
  Buffer out = Buffer::zeros<float>(1024);
  Buffer stride = Buffer::of<unsigned>({32});
  const auto work = metal_test::run_1d(kCopy, "copy", {&in, &out, &stride}, 1024, 256);
  CHECK(work.device_transaction_bytes == 32 * (32 + 1 + 1) * 128);
  CHECK(work.device_footprint_bytes == (1024 + 32 + 1) * 128);
}

TEST_CASE("arithmetic counts once per SIMD group, however few of its threads are active") {
  Buffer out = Buffer::zeros<float>(64);
  const auto all = metal_test::run_1d(R"(
    kernel void k(device float* out, uint i [[thread_position_in_grid]]) { out[i] = float(i) * 2.0f; }
  )",
                                      "k", {&out}, 64, 64);
  const auto one_per_group = metal_test::run_1d(R"(
    kernel void k(device float* out, uint i [[thread_position_in_grid]]) {
      if (i % 32 == 0) out[i] = float(i) * 2.0f;
    })",
                                                "k", {&out}, 64, 64);
  // float(i) is a conversion (4 cycles), * one cycle: 5 per SIMD group, two groups.
  CHECK(all.alu_cycles == 2 * 5);
  CHECK(one_per_group.alu_cycles >
        all.alu_cycles);  // the condition costs; the work does not shrink
}
