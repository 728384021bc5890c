#include <doctest/doctest.h>

#include "engine/backends/mps.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/sim.h"

namespace {

struct Expected {
  const char* machine;
  bool built;
  bool available;
};

constexpr Expected kStates[] = {
    {"m3-max-64gb", true, true},          {"m1-8gb", true, true},
    {"intel-mac-macos12.0", true, false}, {"linux-x86_64", false, false},
    {"rosetta-x86_64", false, false},
};

template <typename Place>
std::string placement_error(const char* machine, Place place) {
  engine::sim::use_machine(machine);
  try {
    place();
  } catch (const engine::Error& e) {
    return engine::py::format_exception_only(e);
  }
  return "no error";
}

// A factory allocates on the device; to() and tensor(...) copy there (PyTorch's two routes).
std::string factory_error(const char* machine) {
  return placement_error(machine, [] { engine::zeros({1}, engine::Device("mps")); });
}
std::string copy_error(const char* machine) {
  return placement_error(machine, [] { engine::ones({1}).to(engine::Device("mps")); });
}

}  // namespace

TEST_CASE("every named machine is in the expected one of the three states") {
  for (const Expected& e : kStates) {
    CAPTURE(e.machine);
    engine::sim::use_machine(e.machine);
    CHECK(engine::py::torch::backends::mps::is_built() == e.built);
    CHECK(engine::py::torch::backends::mps::is_available() == e.available);
    CHECK(engine::py::torch::mps::device_count() == (e.available ? 1 : 0));
    CHECK(engine::mps::is_available() == e.available);
  }
}

TEST_CASE("placing a tensor on mps fails with the text of the machine's state and of the route") {
  const std::string not_linked = "RuntimeError: PyTorch is not linked with support for mps devices";
  const std::string no_kernel =
      "NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'MPS' backend. ";
  for (const char* machine : {"linux-x86_64", "rosetta-x86_64"}) {
    CAPTURE(machine);
    CHECK(factory_error(machine).rfind(no_kernel, 0) == 0);
    CHECK(copy_error(machine) == not_linked);
    CHECK(placement_error(machine, [] {
            engine::tensor({1.0, 2.0}, engine::Device("mps"));
          }) == not_linked);
  }
  const std::string too_old =
      "RuntimeError: The MPS backend is supported on MacOS 13.0+.Current OS version can be queried using `sw_vers`";
  CHECK(factory_error("intel-mac-macos12.0") == too_old);
  CHECK(copy_error("intel-mac-macos12.0") == too_old);
  CHECK(factory_error("m3-max-64gb") == "no error");
  CHECK(copy_error("m3-max-64gb") == "no error");
}

TEST_CASE("a tensor created on mps lands on mps:0") {
  engine::sim::use_machine("m3-max-64gb");
  CHECK(engine::ones({2}, engine::Device("mps")).device().str() == "mps:0");
  CHECK_THROWS_AS(engine::ones({2}, engine::Device("mps:1")), engine::Error);
}

TEST_CASE("no course machine has CUDA, and asking for it raises Python's assertion") {
  engine::sim::use_machine("linux-x86_64");
  try {
    engine::ones({1}, engine::Device("cuda"));
    FAIL("expected an error");
  } catch (const engine::Error& e) {
    CHECK(engine::py::format_exception_only(e) ==
          "AssertionError: Torch not compiled with CUDA enabled");
  }
}

TEST_CASE("is_macos_or_newer compares the simulated macOS version") {
  engine::sim::use_machine("m3-max-64gb");  // macOS 15.6.1
  CHECK(engine::py::torch::backends::mps::is_macos_or_newer(15, 6));
  CHECK(engine::py::torch::backends::mps::is_macos_or_newer(14, 0));
  CHECK_FALSE(engine::py::torch::backends::mps::is_macos_or_newer(15, 7));
  engine::sim::use_machine("linux-x86_64");
  CHECK_FALSE(engine::py::torch::backends::mps::is_macos_or_newer(10, 0));
}

TEST_CASE("MPS skips low-power GPUs and GPUs without Metal 2, as MPSDevice does") {
  engine::MachineProfile integrated = engine::default_machine();
  integrated.gpu->low_power = true;  // an Intel iGPU, say
  engine::sim::use_machine(integrated);
  CHECK(engine::py::torch::backends::mps::is_built());
  CHECK_FALSE(engine::py::torch::backends::mps::is_available());

  engine::MachineProfile old_gpu = engine::default_machine();
  old_gpu.gpu->supports_mac2_family = false;
  engine::sim::use_machine(old_gpu);
  CHECK_FALSE(engine::py::torch::backends::mps::is_available());

  engine::MachineProfile no_gpu = engine::default_machine();
  no_gpu.gpu.reset();
  engine::sim::use_machine(no_gpu);
  CHECK_FALSE(engine::py::torch::backends::mps::is_available());
}

TEST_CASE("PyTorch 2.9 enables MPS from macOS 14.0, though its error still names 13.0") {
  engine::MachineProfile sonoma = engine::default_machine();
  sonoma.os_version = {14, 0, 0};
  engine::sim::use_machine(sonoma);
  CHECK(engine::py::torch::backends::mps::is_available());
  engine::MachineProfile ventura = engine::default_machine();
  ventura.os_version = {13, 7, 4};  // pytorch/pytorch#164943's machine
  engine::sim::use_machine(ventura);
  CHECK_FALSE(engine::py::torch::backends::mps::is_available());
  CHECK_THROWS_WITH_AS(
      engine::zeros({1}, engine::Device("mps")),
      "The MPS backend is supported on MacOS 13.0+.Current OS version can be queried "
      "using `sw_vers`",
      engine::Error);
}

TEST_CASE("an Apple-silicon Mac on macOS 13 is built but unavailable") {
  engine::sim::use_machine("m2-max-macos13.7");
  CHECK(engine::py::torch::backends::mps::is_built());
  CHECK_FALSE(engine::py::torch::backends::mps::is_available());
  CHECK(engine::sim::machine().os_version.major == 13);
}
