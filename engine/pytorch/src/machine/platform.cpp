#include "engine/platform.h"

#include "engine/sim.h"

namespace engine::py::platform {

std::string system() { return sim::machine().os == OperatingSystem::MacOS ? "Darwin" : "Linux"; }

std::string machine() { return std::string(architecture_name(sim::machine().python_architecture)); }

std::string mac_release() {
  const MachineProfile& m = sim::machine();
  return m.os == OperatingSystem::MacOS ? m.os_version.str() : "";
}

bool proc_translated() { return sim::machine().runs_under_rosetta(); }

}  // namespace engine::py::platform
