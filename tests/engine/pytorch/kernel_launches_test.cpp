// sim::KernelLaunchRecording: what each compile_shader kernel launch did, as a lab's budget checks
// and the site's pictures of a launch read it.

#include "engine/kernel_launches.h"

#include <doctest/doctest.h>

#include "engine/compile_shader.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/sim.h"
#include "engine/timeline.h"

using engine::Device;
using engine::py::arg;
using engine::py::torch::mps::compile_shader;

namespace {

// Each thread reads two values of device memory and one of constant memory.
constexpr std::string_view kAdd = R"(
kernel void add(device float* out, device const float* a, device const float* b,
                constant uint& n, uint i [[thread_position_in_grid]]) {
  if (i >= n) return;
  out[i] = a[i] + b[i];
}
)";

constexpr std::string_view kShared = R"(
kernel void shared(device float* out, uint i [[thread_position_in_grid]]) {
  threadgroup float tile[64];
  tile[i % 64] = 1;
  out[i] = 2;
}
)";

}  // namespace

TEST_CASE("a kernel launch is recorded with its grid, threadgroups and device reads") {
  engine::sim::use_machine("m3-max-64gb");
  const auto lib = compile_shader(kAdd);
  const auto a = engine::ones({100}, Device("mps")), out = engine::zeros({100}, Device("mps"));
  const engine::sim::KernelLaunchRecording recording;
  lib.attr("add")(out, a, a, 100, arg("threads") = 128, arg("group_size") = 32);
  REQUIRE(recording.launches().size() == 1);
  const engine::sim::KernelLaunch& launch = recording.launches().front();
  CHECK(launch.kernel == "add");
  CHECK(launch.grid == std::array<std::uint64_t, 3>{128, 1, 1});
  CHECK(launch.group == std::array<std::uint64_t, 3>{32, 1, 1});
  CHECK(launch.threadgroups == 4);
  CHECK(launch.threads() == 128);
  // 100 threads read a[i] and b[i]; the 28 of the tail read only n, from constant memory.
  CHECK(launch.device_loads == 200);
  CHECK(launch.device_loads_per_thread() == doctest::Approx(200.0 / 128));
  CHECK(launch.threadgroup_memory == 0);
  CHECK(launch.seconds > 0);
  // The guard stops the 28 threads of the tail before they touch device memory.
  REQUIRE(launch.idle_threads.size() == 128);
  CHECK(launch.idle_thread_count() == 28);
  CHECK_FALSE(launch.idle_threads[99]);
  CHECK(launch.idle_threads[100]);
}

TEST_CASE("a launch's time is its kernel's span on the device's timeline") {
  engine::sim::use_machine("m3-max-64gb");
  const auto lib = compile_shader(kAdd);
  const auto a = engine::ones({4096}, Device("mps")), out = engine::zeros({4096}, Device("mps"));
  const engine::sim::TimelineRecording timeline;
  const engine::sim::KernelLaunchRecording recording;
  lib.attr("add")(out, a, a, 4096);
  engine::mps::synchronize();
  REQUIRE(recording.launches().size() == 1);
  double kernel_span = 0;
  for (const engine::sim::Span& span : timeline.spans()) {
    if (span.track == "mps device" && span.name == "add") kernel_span = span.duration;
  }
  CHECK(recording.launches().front().seconds == doctest::Approx(kernel_span));
}

TEST_CASE("a launch records the threadgroup memory its kernel declares") {
  const auto lib = compile_shader(kShared);
  const auto out = engine::zeros({64}, Device("mps"));
  const engine::sim::KernelLaunchRecording recording;
  lib.attr("shared")(out);
  REQUIRE(recording.launches().size() == 1);
  CHECK(recording.launches().front().threadgroup_memory == 64 * 4);
  CHECK(recording.launches().front().device_loads == 0);  // writes are not reads
}

TEST_CASE("recordings nest, and record only while they are alive") {
  const auto lib = compile_shader(kShared);
  const auto out = engine::zeros({64}, Device("mps"));
  const engine::sim::KernelLaunchRecording outer;
  {
    const engine::sim::KernelLaunchRecording inner;
    lib.attr("shared")(out);
    CHECK(inner.launches().size() == 1);
  }
  lib.attr("shared")(out);
  CHECK(outer.launches().size() == 2);
}
