// What a compile_shader kernel costs on the simulated GPU (Note [Pricing a Metal kernel] in
// src/machine/shader_cost.cpp): the work it did, on each chip's numbers. The claims a lesson
// makes about custom kernels, checked on kernels small enough to run quickly.

#include <doctest/doctest.h>

#include "engine/compile_shader.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/ops.h"
#include "engine/sim.h"
#include "engine/time.h"

using engine::Device;
using engine::Tensor;
using engine::py::arg;
using engine::py::torch::mps::compile_shader;

namespace {

constexpr std::string_view kKernels = R"(
kernel void copy(const device float* in, device float* out, uint i [[thread_position_in_grid]]) {
  out[i] = in[i];
}
// A transpose's read: the 32 threads of a SIMD group read 32 rows 128 KiB apart.
kernel void gather(const device float* in, device float* out, uint i [[thread_position_in_grid]]) {
  out[i] = in[(i % 32) * 32768 + i / 32];
}
kernel void naive(const device float* a, const device float* b, device float* c, constant uint& n,
                  uint2 g [[thread_position_in_grid]]) {
  float s = 0;
  for (uint k = 0; k < n; ++k) s += a[g.y * n + k] * b[k * n + g.x];
  c[g.y * n + g.x] = s;
}
kernel void tiled(const device float* a, const device float* b, device float* c, constant uint& n,
                  uint2 g [[thread_position_in_grid]], uint2 t [[thread_position_in_threadgroup]]) {
  threadgroup float ta[16][16];
  threadgroup float tb[16][16];
  float s = 0;
  for (uint k0 = 0; k0 < n; k0 += 16) {
    ta[t.y][t.x] = a[g.y * n + k0 + t.x];
    tb[t.y][t.x] = b[(k0 + t.y) * n + g.x];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint k = 0; k < 16; ++k) s += ta[t.y][k] * tb[k][t.x];
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  c[g.y * n + g.x] = s;
}
)";

// Device seconds of `run`: the time from before it to the end of a synchronize(), less an empty
// synchronize's latency.
template <typename Run>
double device_seconds(Run run) {
  run();  // the first run prepares the pipeline on the host
  engine::mps::synchronize();
  const double start = engine::py::time::perf_counter();
  run();
  engine::mps::synchronize();
  return engine::py::time::perf_counter() - start - engine::sim::machine().sync_latency_seconds;
}

}  // namespace

TEST_CASE("a strided read costs more than a coalesced one: each thread moves its own line") {
  engine::sim::use_machine("m3-max-64gb");
  auto lib = compile_shader(kKernels);
  Tensor in = engine::zeros({1 << 20}, Device("mps")),
         out = engine::zeros({1 << 20}, Device("mps"));
  const double coalesced = device_seconds([&] { lib.attr("copy")(in, out); });
  const double strided = device_seconds([&] { lib.attr("gather")(in, out); });
  CHECK(strided > 2 * coalesced);
}

TEST_CASE("a tiled matrix product beats the naive one; MPS's own beats both on large matrices") {
  engine::sim::use_machine("m3-max-64gb");
  auto lib = compile_shader(kKernels);
  const int n = 128;
  Tensor a = engine::randn({n, n}, Device("mps")), b = engine::randn({n, n}, Device("mps"));
  Tensor c = engine::zeros({n, n}, Device("mps"));
  const auto grid = [&] { return std::vector<std::int64_t>{n, n}; };
  const double naive = device_seconds([&] {
    lib.attr("naive")(a, b, c, n, arg("threads") = grid(), arg("group_size") = {16, 16});
  });
  const double tiled = device_seconds([&] {
    lib.attr("tiled")(a, b, c, n, arg("threads") = grid(), arg("group_size") = {16, 16});
  });
  CHECK(naive > tiled);
  // At n = 512 the tiled kernel does 64 times the work on the same 40 cores (every part of its
  // price grows with the work); MPS's own product of that size, timed shape-only, is faster.
  const double launch = engine::sim::machine().kernel_launch_seconds;
  engine::sim::ShapeOnlyGuard shape_only;
  Tensor big = engine::randn({512, 512}, Device("mps"));
  const double mps = device_seconds([&] { big.matmul(big); });
  CHECK(64 * (tiled - launch) > 2 * mps);
}

TEST_CASE("the same kernel takes longer on an M1 than on an M3 Max") {
  const auto time_on = [](const char* machine) {
    engine::sim::use_machine(machine);
    auto lib = compile_shader(kKernels);
    Tensor in = engine::zeros({1 << 20}, Device("mps")),
           out = engine::zeros({1 << 20}, Device("mps"));
    return device_seconds([&] { lib.attr("gather")(in, out); });
  };
  CHECK(time_on("m1-8gb") > 2 * time_on("m3-max-64gb"));
}

TEST_CASE("a kernel's time never falls as its grid grows") {
  engine::sim::use_machine("m3-max-64gb");  // 40 GPU cores
  auto lib = compile_shader(kKernels);
  // One threadgroup more than the cores: the busiest core runs two, which take no less time
  // than the one each core ran before.
  const auto copy_time = [&](std::int64_t groups) {
    Tensor in = engine::zeros({groups * 256}, Device("mps")),
           out = engine::zeros({groups * 256}, Device("mps"));
    return device_seconds([&] { lib.attr("copy")(in, out, arg("group_size") = 256); });
  };
  CHECK(copy_time(41) >= copy_time(40));
  // The tiled product of 64 x 64 matrices: a quarter of the 128 x 128 one's threadgroups, each
  // with half the work. Few resident SIMD groups slow its cores down, but they do not lengthen
  // the latency every small transfer pays.
  const auto tiled_time = [&](int n) {
    Tensor a = engine::randn({n, n}, Device("mps")), b = engine::randn({n, n}, Device("mps"));
    Tensor c = engine::zeros({n, n}, Device("mps"));
    return device_seconds([&] {
      lib.attr("tiled")(a, b, c, n, arg("threads") = std::vector<std::int64_t>{n, n},
                        arg("group_size") = {16, 16});
    });
  };
  CHECK(tiled_time(64) <= tiled_time(128));
}
