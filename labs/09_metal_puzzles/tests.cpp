// Lab 9 · Metal puzzles: the tests. Each puzzle's kernel runs on small tensors of real values
// and is compared with what the engine's own operations compute; where a puzzle is about using
// memory well, the launch's counted work (sim::KernelLaunch) is held to a budget: reads of
// device memory per thread, bytes of threadgroup memory, time on the simulated M3 Max.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/check.h"
#include "puzzle.h"

namespace {

using lab09::check_values;
using lab09::compile_puzzle;
using lab09::run_kernel;

const harness::LessonCell kFill("10_writing_a_metal_kernel/10_1_a_first_kernel",
                                "fill_with_a_kernel");
const harness::LessonCell kTail("10_writing_a_metal_kernel/10_1_a_first_kernel", "the_grids_tail");
const harness::LessonCell kTwoDimensions("10_writing_a_metal_kernel/10_1_a_first_kernel",
                                         "threadgroups_in_two_dimensions");
const harness::LessonCell kRowSoftmax("10_writing_a_metal_kernel/10_2_fusing_and_reducing",
                                      "row_softmax");
const harness::LessonCell kThreeProducts("10_writing_a_metal_kernel/10_3_matrix_products",
                                         "three_products");

const torch::Device kMps("mps");

// n values on mps, different at every position and the same in every run.
torch::Tensor values(std::int64_t n, std::uint64_t seed) {
  torch::manual_seed(seed);
  return torch::rand({n}).to(kMps);
}

torch::Tensor zeros(std::vector<std::int64_t> sizes) { return torch::zeros(sizes, kMps); }

// Whether the launch read at most `most` values from device memory per thread, saying so if not.
void check_reads(const sim::KernelLaunch& launch, double most, const std::string& why) {
  CHECK_MESSAGE(launch.device_loads_per_thread() <= most,
                "each thread read " << harness::fixed(launch.device_loads_per_thread())
                                    << " values from device memory, the budget is " << most
                                    << harness::why << why);
}

}  // namespace

TEST_CASE("map: each thread adds 10 to its element") {
  INFO("lib.map(out, a), 16 elements, one thread each (01_map.metal)");
  const auto lib = compile_puzzle("01_map.metal");
  if (!lib) return;
  const auto a = values(16, 1), out = zeros({16});
  if (!run_kernel(*lib, "01_map.metal", "map", {out, a})) return;
  check_values(out, a + 10.0,
               "Thread i is at position i of the grid ([[thread_position_in_grid]]): it reads "
               "a[i] and writes out[i], and no other thread touches them." +
                   kFill.see());
}

TEST_CASE("zip: each thread adds its elements of a and b") {
  INFO("lib.zip(out, a, b), 16 elements, one thread each (02_zip.metal)");
  const auto lib = compile_puzzle("02_zip.metal");
  if (!lib) return;
  const auto a = values(16, 2), b = values(16, 3), out = zeros({16});
  if (!run_kernel(*lib, "02_zip.metal", "zip", {out, a, b})) return;
  check_values(out, a + b,
               "A call binds its tensors to the kernel's buffers in order: out, then a, then b." +
                   kFill.see());
}

TEST_CASE("guard: threads past the last element leave memory alone") {
  INFO(
      "lib.guard(out, a, 50, threads=64, group_size=32): 50 elements, 64 threads "
      "(03_guard.metal)");
  const auto lib = compile_puzzle("03_guard.metal");
  if (!lib) return;
  const auto a = values(50, 4), out = zeros({50});
  if (!run_kernel(*lib, "03_guard.metal", "guard",
                  {out, a, 50, py::arg("threads") = 64, py::arg("group_size") = 32}))
    return;
  check_values(out, a + 10.0,
               "Threads 0 to 49 each handle their element; threads 50 to 63 return." + kTail.see());
}

TEST_CASE("map in 2D: each thread of an 8 x 8 grid adds 10 to its element of a 5 x 5 matrix") {
  INFO("lib.map_2d(out, a, 5, 5, threads=(8, 8), group_size=(4, 4)) (04_map_2d.metal)");
  const auto lib = compile_puzzle("04_map_2d.metal");
  if (!lib) return;
  const auto a = values(25, 5).reshape({5, 5}), out = zeros({5, 5});
  if (!run_kernel(*lib, "04_map_2d.metal", "map_2d",
                  {out, a, 5, 5, py::arg("threads") = {8, 8}, py::arg("group_size") = {4, 4}}))
    return;
  check_values(out, a + 10.0,
               "position.x is the column (it moves fastest), position.y the row; a matrix stored "
               "row after row has element [row][col] at row * cols + col. Threads with a row or a "
               "column past the matrix return." +
                   kTwoDimensions.see());
}

TEST_CASE("broadcast: a row of 4 plus a column of 3 fills a 3 x 4 matrix") {
  INFO(
      "lib.broadcast(out, a, b, 3, 4, threads=(8, 8), group_size=(8, 8)), a of 4 values, b of 3 "
      "(05_broadcast.metal)");
  const auto lib = compile_puzzle("05_broadcast.metal");
  if (!lib) return;
  const auto a = values(4, 6), b = values(3, 7), out = zeros({3, 4});
  if (!run_kernel(*lib, "05_broadcast.metal", "broadcast",
                  {out, a, b, 3, 4, py::arg("threads") = {8, 8}, py::arg("group_size") = {8, 8}}))
    return;
  check_values(out, a.reshape({1, 4}) + b.reshape({3, 1}),
               "out[row][col] takes a's value of its column and b's of its row: a + "
               "b.unsqueeze(1), as PyTorch broadcasts it." +
                   kTwoDimensions.see());
}

TEST_CASE("pooling: each thread sums three neighbours, reading one value from device memory") {
  INFO("lib.pooling(out, a, threads=8, group_size=8) (06_pooling.metal)");
  const auto lib = compile_puzzle("06_pooling.metal");
  if (!lib) return;
  const auto a = values(8, 8), out = zeros({8});
  const auto launch = run_kernel(*lib, "06_pooling.metal", "pooling",
                                 {out, a, py::arg("threads") = 8, py::arg("group_size") = 8});
  if (!launch) return;
  const std::vector<float> in = a.cpu().to_vector<float>();
  std::vector<float> pooled(in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    pooled[i] = in[i] + (i >= 1 ? in[i - 1] : 0) + (i >= 2 ? in[i - 2] : 0);
  check_values(out, pooled,
               "out[i] = a[i - 2] + a[i - 1] + a[i], with only the elements that exist at the "
               "start (out[0] = a[0])." +
                   kRowSoftmax.see());
  check_reads(*launch, 1,
              "Each element is needed by three threads: read it once into threadgroup memory, "
              "wait at a barrier, and take the neighbours from there." +
                  kRowSoftmax.see());
}

TEST_CASE("dot product: SIMD groups sum their products, then one sums the groups") {
  INFO(
      "lib.dot_product(out, a, b, threads=256, group_size=256), 256 elements "
      "(07_dot_product.metal)");
  const auto lib = compile_puzzle("07_dot_product.metal");
  if (!lib) return;
  const auto a = values(256, 9), b = values(256, 10), out = zeros({1});
  const auto launch =
      run_kernel(*lib, "07_dot_product.metal", "dot_product",
                 {out, a, b, py::arg("threads") = 256, py::arg("group_size") = 256});
  if (!launch) return;
  check_values(out, (a * b).sum().reshape({1}),
               "simd_sum adds a value across the 32 threads of a SIMD group; the eight groups' "
               "sums meet in threadgroup memory, after a barrier." +
                   kRowSoftmax.see());
  check_reads(*launch, 2, "Each thread needs one element of a and one of b." + kRowSoftmax.see());
  CHECK_MESSAGE(launch->threadgroup_memory <= 8 * 4,
                "the kernel declares " << launch->threadgroup_memory
                                       << " bytes of threadgroup memory, the budget is 32"
                                       << harness::why
                                       << "simd_sum leaves one partial sum per SIMD group: 8 "
                                          "floats, not one per thread."
                                       << kRowSoftmax);
}

TEST_CASE("prefix sum: each out[i] sums a[0] to a[i], reading one value per thread") {
  INFO(
      "lib.prefix_sum(out, a, threads=256, group_size=256), 256 elements "
      "(08_prefix_sum.metal)");
  const auto lib = compile_puzzle("08_prefix_sum.metal");
  if (!lib) return;
  const auto a = values(256, 11), out = zeros({256});
  const auto launch = run_kernel(*lib, "08_prefix_sum.metal", "prefix_sum",
                                 {out, a, py::arg("threads") = 256, py::arg("group_size") = 256});
  if (!launch) return;
  std::vector<float> sums;  // each prefix summed by the engine
  for (std::int64_t i = 0; i < 256; ++i) sums.push_back(a.slice(0, 0, i + 1).sum().item<float>());
  check_values(out, sums,
               "simd_prefix_inclusive_sum gives each thread the sum up to itself within its SIMD "
               "group; add the totals of the SIMD groups before it, shared through threadgroup "
               "memory." +
                   kRowSoftmax.see());
  check_reads(*launch, 1,
              "A thread that reads a[0] to a[i] itself reads 128 values on average: each value "
              "is read once, and the sums are shared." +
                  kRowSoftmax.see());
}

TEST_CASE("tiled matrix product: tiles of 16 x 16 in threadgroup memory beat the naive product") {
  constexpr std::int64_t n = 64, tile = 16;
  INFO(
      "lib.tiled_matmul(out, a, b, 64, threads=(64, 64), group_size=(16, 16)) on the M3 Max "
      "(09_tiled_matmul.metal)");
  sim::use_machine("m3-max-64gb");
  const auto lib = compile_puzzle("09_tiled_matmul.metal");
  if (!lib) return;
  const auto a = values(n * n, 12).reshape({n, n}), b = values(n * n, 13).reshape({n, n});
  const auto out = zeros({n, n});
  const auto launch =
      run_kernel(*lib, "09_tiled_matmul.metal", "tiled_matmul",
                 {out, a, b, n, py::arg("threads") = {n, n}, py::arg("group_size") = {tile, tile}});
  if (!launch) return;
  check_values(
      out, torch::matmul(a, b),
      "out[row][col] sums a[row][k] * b[k][col] over k, tile after tile." + kThreeProducts.see());
  check_reads(*launch, 2.0 * n / tile,
              "A naive product reads 2 n values per thread; a tile of 16 x 16 loaded by the "
              "threadgroup, one value per thread, serves each thread 16 times." +
                  kThreeProducts.see());
  CHECK_MESSAGE(launch->threadgroup_memory <= 2 * tile * tile * 4,
                "the kernel declares "
                    << launch->threadgroup_memory << " bytes of threadgroup memory, the budget is "
                    << 2 * tile * tile * 4 << harness::why
                    << "Two tiles of 16 x 16 floats, one of a and one of b." << kThreeProducts);
  const auto naive = py::torch::mps::compile_shader(R"(
kernel void naive(device float* out, device const float* a, device const float* b,
                  constant uint& n, uint2 p [[thread_position_in_grid]]) {
    float sum = 0;
    for (uint k = 0; k < n; ++k) sum += a[p.y * n + k] * b[k * n + p.x];
    out[p.y * n + p.x] = sum;
})");
  const auto naive_launch = run_kernel(
      naive, "09_tiled_matmul.metal", "naive",
      {zeros({n, n}), a, b, n, py::arg("threads") = {n, n}, py::arg("group_size") = {tile, tile}});
  REQUIRE(naive_launch);
  CHECK_MESSAGE(launch->seconds < naive_launch->seconds,
                "on the M3 Max the tiled product took "
                    << harness::fixed(launch->seconds * 1e6) << " us, the naive one "
                    << harness::fixed(naive_launch->seconds * 1e6) << " us" << harness::why
                    << "Tiles pay for their barriers only when they save reads of device memory."
                    << kThreeProducts);
}
