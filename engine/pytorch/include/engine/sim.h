#pragma once
// Controls of the emulator itself, outside the PyTorch API it mirrors. A simulated process
// runs on one machine profile; restarting it resets everything a real process would start
// fresh with (the cached MPS availability, the default random generator, the clocks).

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/machine.h"
#include "engine/tensor.h"
#include "engine/version.h"

namespace engine::sim {

// The simulated computers (engine/machine.h) and the release the engine emulates
// (engine/version.h), as lessons and labs spell them: sim::MachineProfile, sim::machines().
using engine::default_machine;
using engine::find_machine;
using engine::kEmulatedPyTorchCommit;
using engine::kEmulatedPyTorchVersion;
using engine::MachineProfile;
using engine::machines;

// A simulated process that died outside Python, as a real one dies when a C++ exception escapes
// PyTorch's start-up during `import torch`: no traceback, only what() on the terminal. Not an
// engine::Error, since Python cannot catch it.
class ProcessAborted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

const MachineProfile& machine();
// Starts a fresh simulated process on a copy of `profile` (a named one, or one a test
// varies); throws ValueError for an unknown name, and ProcessAborted when the new process dies
// at `import torch` (PYTORCH_ENABLE_MPS_FALLBACK=false on a Mac, say).
void use_machine(const MachineProfile& profile);
void use_machine(std::string_view name);
// Starts a fresh simulated process on the same machine.
void restart();
// Whether a process on `machine` finds MPS available (torch.backends.mps.is_available()),
// without starting one.
bool mps_available_on(const MachineProfile& machine);
// Starts a fresh simulated process whose environment differs from this program's by `changes`:
// `sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", "1"}})` is the emulator's
// `PYTORCH_ENABLE_MPS_FALLBACK=1 python train.py`, for variables PyTorch reads at start-up; a
// name mapped to std::nullopt is removed, as `env -u NAME python train.py` would.
void restart_with_environment(const std::map<std::string, std::optional<std::string>>& changes);

// The operators the engine implements that PyTorch 2.9 has no MPS kernel for (the op
// registry); every other operator has kernels on both devices.
std::vector<std::string> operators_without_mps_kernel();
// How often each operator ran through the MPS backend's cpu fallback in this process.
std::map<std::string, std::int64_t> fallback_counts();
// Where this process's work ran, one entry per change of backend: "cpu", "mps" or
// "cpu fallback". A copy counts where its data lands; a fallback's copies count as fallback.
std::vector<std::string> backend_path();
// Starts the path afresh, to watch one stretch of a run (a single training step, say).
void clear_backend_path();

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
// Stops recording and forgets every span and label recorded so far (write_trace first to keep
// them): a program that traces one part of its work does not pay for the rest.
void stop_tracing();
void label_process(std::string label);  // the current process's name in the trace
// Full keeps every span. Summarised keeps each simulated process's first 10,000 spans and then
// merges each track's runs of per-operation spans into one span that counts them: a long
// training loop's trace shrinks from tens of megabytes to about one, and every sync point of
// every step still shows. Throws engine::Error when the file cannot be written.
enum class TraceDetail { Full, Summarised };
void write_trace(const std::string& path, TraceDetail detail = TraceDetail::Full);

}  // namespace engine::sim
