#include "engine/sim.h"

#include <string>

#include "engine/errors.h"
#include "process.h"

namespace engine {
namespace detail {

Process& process() {
  static Process current(default_machine());
  return current;
}

}  // namespace detail

namespace sim {

const MachineProfile& machine() { return detail::process().machine; }

void use_machine(const MachineProfile& profile) {
  detail::process() = detail::Process(profile);
}

void use_machine(std::string_view name) {
  const MachineProfile* profile = find_machine(name);
  if (profile == nullptr) {
    throw ValueError("unknown machine '" + std::string(name) + "'; choose one of " +
                     machine_names());
  }
  use_machine(*profile);
}

void restart() { use_machine(machine()); }

}  // namespace sim
}  // namespace engine
