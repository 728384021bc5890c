#pragma once
// The machines the lessons document outputs for: the default M3 Max and the five that show the
// other states and sizes of MPS (the 8 GB M1, the Intel Mac and the Mac on macOS 13 whose MPS is
// unavailable, Linux and Rosetta, where PyTorch has none). In a lesson, an output block naming
// no machine documents each of these that has no block of its own; a block may name only
// these. Every other machine (the cost model's chips, "host") has no documented output: its
// runs are compared with the documented machine closest to it (closest_machine.h), their
// differences are no failure, and they never count as verifying a lesson.

#include <span>
#include <string_view>

#include "engine/machine.h"
#include "engine/notebook/lesson_source.h"

namespace engine::notebook {

// In --list-machines order, the default machine first.
std::span<const MachineProfile* const> documented_machines();
bool is_documented(const MachineProfile& machine);

// The output `cell` documents for `machine`: the standard line for a requires="mps" cell where
// MPS is unavailable (one block for all those machines), else Cell::output_for.
const OutputBlock* documented_output(const Cell& cell, std::string_view machine);

}  // namespace engine::notebook
