#pragma once
// The machine a computer resembles most, so that `--machine host` (or any machine a lesson
// documents no output for) can be compared with the outputs documented for the course's
// machines: a Linux box with linux-x86_64, an Apple-silicon Mac on a current macOS with the M1
// or the M3 Max, whichever has the nearer amount of memory, a Mac too old for MPS with the
// macOS 13 Mac, and so on.

#include <span>

#include "engine/machine.h"

namespace engine::notebook {

// Ranks the candidates (never `computer` itself) by, in order: the same operating system, the
// same CPU and interpreter architectures, the same answers of is_built() and is_available(),
// then the nearest memory size. Asks the engine for the availability answers, which starts
// simulated processes: call it before running cells. `candidates` must hold another machine.
const MachineProfile& closest_machine(const MachineProfile& computer,
                                      std::span<const MachineProfile* const> candidates);

}  // namespace engine::notebook
