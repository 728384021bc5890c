// The MPS caching allocator through torch.mps's counters: heap sizes, caching and reuse,
// empty_cache, garbage collection above the low watermark, the watermark settings and the
// out-of-memory error, all with PyTorch's texts.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/backends/mps.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/machine.h"
#include "engine/mps.h"
#include "engine/ops.h"
#include "engine/os.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "test_support.h"

using engine::Device;
using engine::Tensor;
using test_support::error_of;
namespace mps = engine::py::torch::mps;  // Python's torch.mps: its memory counters

namespace {

constexpr std::int64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;
constexpr std::int64_t kDriverOverhead = 384 * kKiB;

// A shape-only float32 tensor of `bytes` on mps: memory on the simulated machine, none here.
Tensor mps_bytes(std::int64_t bytes) {
  engine::sim::ShapeOnlyGuard shape_only;
  return engine::zeros({bytes / 4}, Device("mps"));
}

}  // namespace

TEST_CASE("a freed tensor's buffer stays cached until empty_cache returns its heap") {
  engine::sim::use_machine("m3-max-64gb");
  Tensor t = engine::ones({1024, 1024}, Device("mps"));  // 4 MiB: a 32 MiB heap
  CHECK(mps::current_allocated_memory() == 4 * kMiB);
  CHECK(mps::driver_allocated_memory() == 32 * kMiB + kDriverOverhead);
  t = Tensor();  // del t
  CHECK(mps::current_allocated_memory() == 0);
  CHECK(mps::driver_allocated_memory() == 32 * kMiB + kDriverOverhead);  // cached, not returned
  mps::empty_cache();
  CHECK(mps::driver_allocated_memory() == kDriverOverhead);
}

TEST_CASE("a cached buffer is reused by a request it fits") {
  engine::sim::use_machine("m3-max-64gb");
  { const Tensor first = mps_bytes(100 * kMiB); }  // a 1 GiB heap, then cached
  const std::int64_t reserved = mps::driver_allocated_memory();
  CHECK(reserved == kGiB + kDriverOverhead);
  const Tensor second = mps_bytes(90 * kMiB);  // fits the cached 100 MiB buffer
  CHECK(mps::driver_allocated_memory() == reserved);
  CHECK(mps::current_allocated_memory() == 100 * kMiB);  // the whole reused buffer counts
}

TEST_CASE("heaps are sized by the request, and sizes round up to whole pages") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor tiny = engine::ones({3}, Device("mps"));  // 12 bytes: one 16 KiB page, an 8 MiB heap
  CHECK(mps::current_allocated_memory() == 16 * kKiB);
  CHECK(mps::driver_allocated_memory() == 8 * kMiB + kDriverOverhead);
  const Tensor huge = mps_bytes(600 * kMiB);  // half a 1 GiB heap or more: a dedicated heap
  CHECK(mps::driver_allocated_memory() == 8 * kMiB + 600 * kMiB + kDriverOverhead);
  const Tensor views = huge.reshape({2, -1});  // a view holds the same buffer
  CHECK(mps::current_allocated_memory() == 16 * kKiB + 600 * kMiB);
}

TEST_CASE("empty_cache waits for the device before releasing") {
  engine::sim::use_machine("m3-max-64gb");
  const Tensor x = mps_bytes(64 * kMiB).reshape({4096, 4096});
  x.matmul(x);  // queued, not finished
  const double before = engine::py::time::perf_counter();
  mps::empty_cache();
  CHECK(engine::py::time::perf_counter() - before > 1e-3);
}

TEST_CASE("above the low watermark, aged cached buffers are collected with their heaps") {
  engine::sim::use_machine("m1-8gb");
  engine::py::os::setenv("PYTORCH_MPS_LOW_WATERMARK_RATIO", "0.05");  // 273 MiB on 8 GB
  const Tensor held = mps_bytes(600 * kMiB);                          // now over the low watermark
  {
    std::vector<Tensor> small;
    for (int i = 0; i < 3; ++i)
      small.push_back(mps_bytes(30 * kMiB));  // dedicated heaps, under pressure
  }
  CHECK(mps::driver_allocated_memory() == 690 * kMiB + kDriverOverhead);  // cached
  const Tensor next = mps_bytes(40 * kMiB);  // no cached buffer fits: collect, then allocate
  CHECK(mps::driver_allocated_memory() == 640 * kMiB + kDriverOverhead);
}

TEST_CASE("the out-of-memory error follows PyTorch's text, with the cap at 1.7 x the working set") {
  engine::sim::use_machine("m1-8gb");  // recommended working set: 2/3 of 8 GB
  CHECK(mps::recommended_max_memory() == 8 * kGiB * 2 / 3);
  std::vector<Tensor> kept;
  for (int i = 0; i < 3; ++i) kept.push_back(mps_bytes(3 * kGiB));  // 9 GiB: just under the cap
  CHECK(
      error_of([] { mps_bytes(3 * kGiB); }) ==
      "MPS backend out of memory (MPS allocated: 9.00 GiB, other allocations: 384.00 KiB, max allowed: "
      "9.07 GiB). Tried to allocate 3.00 GiB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 "
      "to disable upper limit for memory allocations (may cause system failure).");
}

TEST_CASE("one buffer at or above Metal's maxBufferLength is refused before any watermark") {
  engine::sim::use_machine("m1-8gb");  // an 8 GB Mac: maxBufferLength is 4 GiB
  CHECK(error_of([] { mps_bytes(12 * kGiB); }) == "Invalid buffer size: 12.00 GiB");
  CHECK(error_of([] { mps_bytes(4 * kGiB); }) == "Invalid buffer size: 4.00 GiB");
  CHECK(error_of([] { mps_bytes(4 * kGiB - 16384); }) == "no error");
  engine::py::os::setenv("PYTORCH_MPS_HIGH_WATERMARK_RATIO", "0.0");  // no cap: still refused
  engine::sim::restart_with_environment({{"PYTORCH_MPS_HIGH_WATERMARK_RATIO", "0.0"}});
  CHECK(error_of([] { mps_bytes(6 * kGiB); }) == "Invalid buffer size: 6.00 GiB");
  engine::sim::use_machine("m3-max-64gb");
  CHECK(error_of([] { mps_bytes(96 * kGiB); }) == "Invalid buffer size: 96.00 GiB");
}

TEST_CASE("a high watermark of 0 removes the cap") {
  engine::sim::use_machine("m1-8gb");
  engine::py::os::setenv("PYTORCH_MPS_HIGH_WATERMARK_RATIO", "0.0");
  std::vector<Tensor> beyond;
  for (int i = 0; i < 4; ++i) beyond.push_back(mps_bytes(3 * kGiB));
  CHECK(mps::current_allocated_memory() == 12 * kGiB);
}

TEST_CASE("the watermark ratios are validated when the allocator starts, as PyTorch does") {
  engine::sim::use_machine("m3-max-64gb");
  engine::py::os::setenv("PYTORCH_MPS_HIGH_WATERMARK_RATIO", "2.5");
  CHECK(error_of([] { engine::ones({1}, Device("mps")); }) == "invalid high watermark ratio 2.5");
}

TEST_CASE(
    "the watermark variables are read once: a failed start cannot be fixed in the same process") {
  engine::sim::use_machine("m3-max-64gb");
  engine::py::os::setenv("PYTORCH_MPS_HIGH_WATERMARK_RATIO",
                         "0.7");  // below the default low ratio 1.4
  CHECK(error_of([] { engine::ones({1}, Device("mps")); }) == "invalid low watermark ratio 1.4");
  engine::py::os::setenv("PYTORCH_MPS_LOW_WATERMARK_RATIO",
                         "0.5");  // too late: init_allocator read it
  CHECK(error_of([] { engine::ones({1}, Device("mps")); }) == "invalid low watermark ratio 1.4");
  // set_per_process_memory_fraction starts the same allocator, and fails the same way.
  CHECK(error_of([] { mps::set_per_process_memory_fraction(0.5); }) ==
        "invalid low watermark ratio 1.4");
  engine::sim::restart_with_environment(
      {{"PYTORCH_MPS_HIGH_WATERMARK_RATIO", "0.7"}, {"PYTORCH_MPS_LOW_WATERMARK_RATIO", "0.5"}});
  CHECK_NOTHROW(engine::ones({1}, Device("mps")));  // a new process with both set starts fine
}

TEST_CASE("set_per_process_memory_fraction checks its argument as Python does, then caps") {
  engine::sim::use_machine("m1-8gb");
  CHECK(error_of([] { mps::set_per_process_memory_fraction(1); }) ==
        "Invalid type for fraction argument, must be `float`");
  CHECK(error_of([] { mps::set_per_process_memory_fraction(2.5); }) ==
        "Invalid fraction value: 2.5. Allowed range: 0~2");
  mps::set_per_process_memory_fraction(0.5);
  CHECK(error_of([] { mps_bytes(3 * kGiB); }).find("max allowed: 2.67 GiB") != std::string::npos);
}

TEST_CASE("the memory functions need an MPS build, and read 0 where MPS is unavailable") {
  engine::sim::use_machine("linux-x86_64");
  CHECK(error_of([] { mps::current_allocated_memory(); }) ==
        "Cannot execute getCurrentAllocatedMemory() without MPS backend.");
  CHECK(error_of([] { mps::empty_cache(); }) == "Cannot execute emptyCache() without MPS backend.");
  engine::sim::use_machine("intel-mac-macos12.0");
  CHECK(mps::current_allocated_memory() == 0);
  CHECK(mps::recommended_max_memory() == 0);
}

TEST_CASE("a discrete GPU's allocator takes the same default high watermark, 1.7") {
  engine::MachineProfile intel = *engine::find_machine("intel-mac-macos12.0");
  intel.os_version = {14, 6, 0};  // new enough for 2.9's MPS: its 4 GB Radeon becomes usable
  intel.max_buffer_length =
      1ULL << 30;  // the profile leaves it unset, MPS being off there; any will do
  engine::sim::use_machine(intel);
  REQUIRE(engine::py::torch::backends::mps::is_available());
  Tensor kept;
  CHECK(error_of([&] { kept = engine::ones({1}, engine::Device("mps")); }) ==
        "no error");  // once: "invalid high watermark ratio 1.7"
  CHECK(mps::current_allocated_memory() > 0);
}

TEST_CASE("unified memory beyond what the machine has left is paged out, and the GPU slows") {
  engine::sim::use_machine("m1-8gb");  // 8 GiB, 3 GiB of it used by other applications
  auto seconds_per_pass = [](const Tensor& t) {
    engine::mps::synchronize();
    const double start = engine::py::time::perf_counter();
    t * 2.0;
    engine::mps::synchronize();
    return engine::py::time::perf_counter() - start;
  };
  const Tensor fits = mps_bytes(1 * kGiB);
  const double fast = seconds_per_pass(fits);
  const Tensor crowd = mps_bytes(3 * kGiB), more = mps_bytes(2 * kGiB);  // 6 GiB + 3 GiB > 8 GiB
  CHECK(seconds_per_pass(fits) > 3 * fast);
}

TEST_CASE(
    "a reduction over several dimensions allocates only its result, as one over a single one does") {
  const auto driver_bytes_for = [](bool flatten_first) {
    engine::sim::use_machine("m3-max-64gb");
    const Tensor a = engine::ones({1024, 1024}, engine::Device("mps"));
    const Tensor input = flatten_first ? a.reshape({-1}) : a;
    const std::int64_t before = mps::driver_allocated_memory();
    const Tensor total = input.sum();  // one MPSGraph reduction in PyTorch, either way
    return mps::driver_allocated_memory() - before;
  };
  const std::int64_t over_one = driver_bytes_for(true);
  CHECK(over_one > 0);
  CHECK(driver_bytes_for(false) == over_one);  // once: an extra heap for a (1024, 1) partial sum
}
