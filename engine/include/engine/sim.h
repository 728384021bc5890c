#pragma once
// Controls of the emulator itself, outside the PyTorch API it mirrors. A simulated process
// runs on one machine profile; restarting it resets everything a real process would start
// fresh with (the cached MPS availability, the default random generator, the clocks).

#include <string>
#include <string_view>

#include "engine/machine.h"
#include "engine/tensor.h"

namespace engine::sim {

const MachineProfile& machine();
// Starts a fresh simulated process on a copy of `profile` (a named one, or one a test
// varies); throws ValueError for an unknown name.
void use_machine(const MachineProfile& profile);
void use_machine(std::string_view name);
// Starts a fresh simulated process on the same machine.
void restart();

// While a ShapeOnlyGuard is alive, new tensors are shape-only: they have a shape, a dtype, a
// device and a cost, but no values, like PyTorch's meta tensors but on a real device. Every
// operation on them costs what it would cost on the simulated machine, so a model far larger
// than this computer's memory can be timed. Reading their values is an error, with one
// exception that keeps what-if training loops honest: item() as a float or double waits for the
// device like the real one, then returns NaN, as there is no value to read.
class ShapeOnlyGuard {
 public:
  ShapeOnlyGuard();
  ~ShapeOnlyGuard();
  ShapeOnlyGuard(const ShapeOnlyGuard&) = delete;
  ShapeOnlyGuard& operator=(const ShapeOnlyGuard&) = delete;
};
bool shape_only_mode();
bool is_shape_only(const Tensor& t);

// --trace: record the host's and the device's timelines of every simulated process from now
// on, and write them as a Chrome trace (open it in Perfetto, ui.perfetto.dev).
void start_tracing();
void label_process(std::string label);  // the current process's name in the trace
void write_trace(const std::string& path);

}  // namespace engine::sim
