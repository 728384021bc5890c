#include "engine/notebook/closest_machine.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using engine::Architecture;
using engine::MachineProfile;

constexpr std::uint64_t kGiB = 1ULL << 30;

// A computer like the named machine `like`, as `--machine host` would read it.
MachineProfile computer_like(std::string_view like, std::uint64_t memory,
                             engine::OsVersion os = {}) {
  MachineProfile m = *engine::find_machine(like);
  m.name = "host";
  m.memory_bytes = memory;
  if (os.major != 0) m.os_version = os;
  return m;
}

// The course's documented machines, as a lesson that documents all of them lists them.
std::string closest(const MachineProfile& computer) {
  std::vector<const MachineProfile*> documented;
  for (const char* name : {"m3-max-64gb", "m1-8gb", "intel-mac-macos12.0", "m2-max-macos13.7",
                           "linux-x86_64", "rosetta-x86_64"}) {
    documented.push_back(engine::find_machine(name));
  }
  return std::string(engine::notebook::closest_machine(computer, documented).name);
}

}  // namespace

TEST_CASE(
    "a machine without documented outputs is compared with the documented machine it resembles") {
  CHECK(closest(computer_like("linux-x86_64", 64 * kGiB)) == "linux-x86_64");
  MachineProfile arm_linux = computer_like("linux-x86_64", 8 * kGiB);
  arm_linux.cpu_architecture = arm_linux.python_architecture = Architecture::Arm64;
  CHECK(closest(arm_linux) == "linux-x86_64");  // the only Linux machine; no MPS either way

  // Apple silicon on a macOS that runs MPS: the available Mac with the nearer memory size.
  CHECK(closest(computer_like("m1-8gb", 16 * kGiB, {15, 2, 0})) == "m1-8gb");
  CHECK(closest(computer_like("m1-8gb", 48 * kGiB, {26, 0, 0})) == "m3-max-64gb");
  // ... and on a macOS too old for 2.9's MPS, the Mac where MPS is built but unavailable.
  CHECK(closest(computer_like("m1-8gb", 16 * kGiB, {13, 6, 0})) == "m2-max-macos13.7");
  CHECK(closest(computer_like("rosetta-x86_64", 8 * kGiB)) == "rosetta-x86_64");
  CHECK(closest(computer_like("intel-mac-macos12.0", 32 * kGiB, {15, 0, 0})) ==
        "intel-mac-macos12.0");
  CHECK(closest(*engine::find_machine("m3-max-64gb")) != "m3-max-64gb");  // never itself
  // The chips of the cost model have no documented outputs: a 16 GiB M4 is compared with the M1.
  CHECK(closest(*engine::find_machine("m4-16gb")) == "m1-8gb");
  CHECK(closest(*engine::find_machine("m4-max-128gb")) == "m3-max-64gb");
}
