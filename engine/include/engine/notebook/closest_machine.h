#pragma once
// The named machine a computer resembles most, so that `--machine host` can be compared with
// outputs documented for the course's machines: a Linux box with linux-x86_64, an
// Apple-silicon Mac on a current macOS with the M1 or the M3 Max, whichever has the nearer
// amount of memory, a Mac too old for MPS with the macOS 13 Mac, and so on.

#include "engine/machine.h"

namespace engine::notebook {

// Ranks the named machines (never "host", never `computer` itself) by, in order: the same
// operating system, the same CPU and interpreter architectures, the same answers of
// is_built() and is_available(), then the nearest memory size. Asks the engine for the
// availability answers, which starts simulated processes: call it before running cells.
const MachineProfile& closest_named_machine(const MachineProfile& computer);

}  // namespace engine::notebook
