#include "engine/notebook/documented_machines.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "engine/sim.h"

namespace engine::notebook {

std::span<const MachineProfile* const> documented_machines() {
  static const std::vector<const MachineProfile*> documented = [] {
    constexpr std::array<std::string_view, 6> kNames = {"m3-max-64gb",         "m1-8gb",
                                                        "intel-mac-macos12.0", "m2-max-macos13.7",
                                                        "linux-x86_64",        "rosetta-x86_64"};
    std::vector<const MachineProfile*> found;
    for (const MachineProfile* m : machines()) {
      if (std::find(kNames.begin(), kNames.end(), m->name) != kNames.end()) found.push_back(m);
    }
    return found;
  }();
  return documented;
}

bool is_documented(const MachineProfile& machine) {
  const auto documented = documented_machines();
  return std::find(documented.begin(), documented.end(), &machine) != documented.end();
}

const OutputBlock* documented_output(const Cell& cell, std::string_view machine) {
  static const OutputBlock kNeedsMps{
      .machines = {}, .marker_line = 0, .lines = {std::string(kNeedsMpsLine)}};
  if (cell.requires_mps) {
    const MachineProfile* profile = find_machine(machine);
    if (profile != nullptr && !sim::mps_available_on(*profile)) return &kNeedsMps;
  }
  return cell.output_for(machine);
}

}  // namespace engine::notebook
