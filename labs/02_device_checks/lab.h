#pragma once
// Lab 2 · Device checks. What a training script decides before any tensor moves: which of the
// three states of lesson 2 this machine is in, which device to use, one line for the log that
// says what to do, and whether a tensor is on the GPU. The tests run your code on every
// simulated machine, this computer included.

#include <string>

#include <engine/engine.h>

namespace torch = engine;  // read torch:: as in LibTorch: only the names LibTorch has
namespace sim = engine::sim;  // the emulator's controls: its machines and processes
namespace py = engine::py;  // Python's own API, where LibTorch has none: py::time, py::torch::mps

namespace lab {

// The three states, from py::torch::backends::mps::is_built() and is_available().
enum class MpsState { NotBuilt, BuiltButUnavailable, Available };

MpsState mps_state();

// torch::Device("mps") when this process can use MPS, torch::Device("cpu") otherwise.
torch::Device choose_device();

// One line for the top of a training log: the state's name, a colon, then what to do.
//   "not built: ..."              the fix mentions the arm64 wheel (install from an arm64 Python)
//   "built but unavailable: ..."  the fix mentions macOS (update it) and the cpu (use it meanwhile)
//   "available: ..."              the fix mentions mps (put the model and the batch there)
std::string diagnosis();

// True when `t` lives on the GPU, whichever way its device is written ("mps" or "mps:0").
bool on_gpu(const torch::Tensor& t);

}  // namespace lab
