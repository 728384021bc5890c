#include "engine/machine.h"

#include <doctest/doctest.h>

#include <set>
#include <string_view>

#include "engine/errors.h"
#include "engine/sim.h"

TEST_CASE("the default machine is the M3 Max of the nanoGPT measurements") {
  CHECK(engine::default_machine().name == "m3-max-64gb");
  CHECK(engine::default_machine().os_version == engine::OsVersion{15, 6, 1});
  CHECK(engine::machines().front() == &engine::default_machine());
}

TEST_CASE("every machine the lessons name can be found, and unknown names are refused") {
  for (const char* name :
       {"m3-max-64gb", "m1-8gb", "intel-mac-macos12.0", "linux-x86_64", "rosetta-x86_64", "host"}) {
    CAPTURE(name);
    REQUIRE(engine::find_machine(name) != nullptr);
    CHECK(engine::find_machine(name)->name == name);
  }
  CHECK(engine::find_machine("m4") == nullptr);
  CHECK_THROWS_WITH_AS(engine::sim::use_machine("m4"),
                       doctest::Contains("unknown machine 'm4'; choose one of m3-max-64gb"),
                       engine::ValueError);
}

TEST_CASE("Apple recommends a working set of 2/3 of RAM up to 32 GB and 3/4 at 64 GB") {
  const auto& m3 = *engine::find_machine("m3-max-64gb");
  CHECK(m3.recommended_working_set_bytes * 4 == m3.memory_bytes * 3);
  const auto& m1 = *engine::find_machine("m1-8gb");
  CHECK(m1.recommended_working_set_bytes == m1.memory_bytes * 2 / 3);
  // 1.7 x 2/3 x 8 GiB is the "max allowed: 9.07" of real 8 GB reports.
  const double cap_gib = 1.7 * static_cast<double>(m1.recommended_working_set_bytes) / (1ULL << 30);
  CHECK(cap_gib == doctest::Approx(9.07).epsilon(0.001));
}

TEST_CASE("the Rosetta profile runs an x86_64 interpreter on Apple silicon") {
  const auto& rosetta = *engine::find_machine("rosetta-x86_64");
  CHECK(rosetta.runs_under_rosetta());
  CHECK(rosetta.cpu_architecture == engine::Architecture::Arm64);
  CHECK(rosetta.python_architecture == engine::Architecture::X86_64);
  CHECK_FALSE(engine::default_machine().runs_under_rosetta());
}

TEST_CASE("the host profile describes the computer the tests run on") {
  const auto& host = *engine::find_machine("host");
  CHECK(host.memory_bytes > 0);
#if defined(__x86_64__)
  CHECK(host.python_architecture == engine::Architecture::X86_64);
#elif defined(__aarch64__) || defined(__arm64__)
  CHECK(host.python_architecture == engine::Architecture::Arm64);
#endif
#if defined(__APPLE__)
  CHECK(host.os == engine::OperatingSystem::MacOS);
#else
  CHECK(host.os == engine::OperatingSystem::Linux);
  CHECK_FALSE(host.torch_built_with_mps);
#endif
}

TEST_CASE("every Apple-silicon profile carries the numbers the cost model needs") {
  for (const engine::MachineProfile* m : engine::machines()) {
    if (m->os != engine::OperatingSystem::MacOS ||
        m->cpu_architecture != engine::Architecture::Arm64) {
      continue;
    }
    CAPTURE(m->name);
    REQUIRE(m->gpu.has_value());
    CHECK(m->gpu->fp32_flops > 1e12);
    CHECK(m->gpu->memory_bandwidth > 50e9);
    CHECK(m->kernel_launch_seconds > 0);
    CHECK(m->host_dispatch_seconds > 0);
    CHECK(m->recommended_working_set_bytes < m->memory_bytes);
  }
}

TEST_CASE("every Apple-silicon configuration sold is a machine, found by its name") {
  const auto sold = engine::apple_silicon_configurations();
  CHECK(sold.size() == 76);  // M1 to M4, Pro, Max and Ultra: CPU and GPU variants x memory sizes
  std::set<std::string_view> names;
  for (const engine::MachineProfile* m : engine::machines()) names.insert(m->name);
  for (const engine::MachineProfile* m : sold) {
    CAPTURE(m->name);
    CHECK(names.insert(m->name).second);  // no name twice, in either list
    CHECK(engine::find_machine(m->name) == m);
    CHECK(m->os_version == engine::OsVersion{15, 6, 1});
  }
  for (const char* name :
       {"m1-8cpu-7gpu-8gb", "m1-max-10cpu-24gpu-32gb", "m2-ultra-24cpu-76gpu-192gb",
        "m3-max-14cpu-30gpu-36gb", "m3-ultra-32cpu-80gpu-512gb", "m4-10cpu-8gpu-24gb",
        "m4-max-14cpu-32gpu-36gb"}) {
    CAPTURE(name);
    CHECK(engine::find_machine(name) != nullptr);
  }
  // Never sold: a 30-core M3 Max came with 36 or 96 GB, a 32-core M4 Max with 36 GB only.
  CHECK(engine::find_machine("m3-max-14cpu-30gpu-64gb") == nullptr);
  CHECK(engine::find_machine("m4-max-14cpu-32gpu-128gb") == nullptr);
}

TEST_CASE("a binned GPU's FP32 peak scales with its cores, and its bandwidth is Apple's figure") {
  const auto& binned = *engine::find_machine("m3-max-14cpu-30gpu-36gb");
  const auto& full = *engine::find_machine("m3-max-16cpu-40gpu-48gb");
  CHECK(binned.gpu->fp32_flops * 40 == doctest::Approx(full.gpu->fp32_flops * 30));
  CHECK(binned.gpu->cores == 30);
  CHECK(binned.gpu->memory_bandwidth == 300e9);
  CHECK(full.gpu->memory_bandwidth == 400e9);
  CHECK(engine::find_machine("m4-max-14cpu-32gpu-36gb")->gpu->memory_bandwidth == 410e9);
  // Fewer performance cores too (10 of 12), at the chip's clock.
  CHECK(binned.cpu_fp32_flops * 12 == doctest::Approx(full.cpu_fp32_flops * 10));
  CHECK(binned.cpu_core_hz == full.cpu_core_hz);
  CHECK(binned.cpu_cores == 14);
  CHECK(full.cpu_cores == 16);
  CHECK(binned.gpu->family == full.gpu->family);
}

TEST_CASE("the course's named Macs cost what the configurations they are cost") {
  struct Pair {
    const char* course;
    const char* configuration;
  };
  for (const Pair& p :
       {Pair{"m3-max-64gb", "m3-max-16cpu-40gpu-64gb"}, Pair{"m1-8gb", "m1-8cpu-8gpu-8gb"},
        Pair{"m1-pro-16gb", "m1-pro-10cpu-16gpu-16gb"},
        Pair{"m2-pro-16gb", "m2-pro-10cpu-16gpu-16gb"},
        Pair{"m3-pro-18gb", "m3-pro-11cpu-14gpu-18gb"}, Pair{"m4-16gb", "m4-10cpu-10gpu-16gb"},
        Pair{"m4-max-128gb", "m4-max-16cpu-40gpu-128gb"}}) {
    CAPTURE(p.course);
    const auto& a = *engine::find_machine(p.course);
    const auto& b = *engine::find_machine(p.configuration);
    CHECK(a.gpu->fp32_flops == b.gpu->fp32_flops);
    CHECK(a.gpu->memory_bandwidth == b.gpu->memory_bandwidth);
    CHECK(a.cpu_fp32_flops == b.cpu_fp32_flops);
    CHECK(a.cpu_matrix_flops == b.cpu_matrix_flops);
    CHECK(a.cpu_cores == b.cpu_cores);
    CHECK(a.memory_bytes == b.memory_bytes);
  }
}
