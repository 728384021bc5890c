#include "engine/platform.h"

#include <doctest/doctest.h>

#include "engine/sim.h"

TEST_CASE("platform reports what Python would on each simulated machine") {
  engine::sim::use_machine("m3-max-64gb");
  CHECK(engine::py::platform::system() == "Darwin");
  CHECK(engine::py::platform::machine() == "arm64");
  CHECK(engine::py::platform::mac_release() == "15.6.1");
  CHECK_FALSE(engine::py::platform::proc_translated());

  CHECK(engine::py::platform::python_version() == "3.12.4");
  CHECK(engine::py::platform::xcode_select_path() == "/Library/Developer/CommandLineTools");

  engine::sim::use_machine("intel-mac-macos12.0");
  CHECK(engine::py::platform::python_version() == "3.8.9");  // older than Apple's 3.10

  engine::sim::use_machine("rosetta-x86_64");
  CHECK(engine::py::platform::python_version() == "3.8.10");
  CHECK(engine::py::platform::machine() == "x86_64");
  CHECK(engine::py::platform::proc_translated());
  CHECK(engine::py::platform::mac_release() == "14.6");
  CHECK(engine::py::platform::xcode_select_path().empty());  // python.org's installer, no tools

  engine::sim::use_machine("linux-x86_64");
  CHECK(engine::py::platform::system() == "Linux");
  CHECK(engine::py::platform::mac_release().empty());
  CHECK(engine::py::platform::python_version() == "3.11.2");
  CHECK(engine::py::platform::xcode_select_path().empty());  // no xcode-select off macOS
}
