#pragma once
// Controls of the emulator itself, outside the PyTorch API it mirrors. A simulated process
// runs on one machine profile; restarting it resets everything a real process would start
// fresh with (the cached MPS availability, the default random generator).

#include <string_view>

#include "engine/machine.h"

namespace engine::sim {

const MachineProfile& machine();
// Starts a fresh simulated process on a copy of `profile` (a named one, or one a test
// varies); throws ValueError for an unknown name.
void use_machine(const MachineProfile& profile);
void use_machine(std::string_view name);
// Starts a fresh simulated process on the same machine.
void restart();

}  // namespace engine::sim
