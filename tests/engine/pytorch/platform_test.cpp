#include "engine/platform.h"

#include <doctest/doctest.h>

#include "engine/sim.h"

TEST_CASE("platform reports what Python would on each simulated machine") {
  engine::sim::use_machine("m3-max-64gb");
  CHECK(engine::py::platform::system() == "Darwin");
  CHECK(engine::py::platform::machine() == "arm64");
  CHECK(engine::py::platform::mac_release() == "15.6.1");
  CHECK_FALSE(engine::py::platform::proc_translated());

  engine::sim::use_machine("rosetta-x86_64");
  CHECK(engine::py::platform::machine() == "x86_64");
  CHECK(engine::py::platform::proc_translated());
  CHECK(engine::py::platform::mac_release() == "14.6");

  engine::sim::use_machine("linux-x86_64");
  CHECK(engine::py::platform::system() == "Linux");
  CHECK(engine::py::platform::mac_release().empty());
}
