#include "engine/platform.h"

#include "engine/sim.h"

namespace engine::py::platform {

std::string system() { return sim::machine().os == OperatingSystem::MacOS ? "Darwin" : "Linux"; }

std::string machine() { return std::string(architecture_name(sim::machine().python_architecture)); }

std::string mac_release() {
  const MachineProfile& m = sim::machine();
  return m.os == OperatingSystem::MacOS ? m.os_version.str() : "";
}

std::string python_version() {
  const OsVersion& v = sim::machine().python_version;  // always three numbers, as Python prints
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

bool proc_translated() { return sim::machine().runs_under_rosetta(); }

std::string xcode_select_path() {
  const MachineProfile& m = sim::machine();
  return m.os == OperatingSystem::MacOS ? std::string(m.developer_directory) : "";
}

}  // namespace engine::py::platform
