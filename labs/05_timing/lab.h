#pragma once
// Lab 5 · Timing. Two habits of lesson 5 as code: a timer that measures what the GPU does rather
// than how fast the host queues it, and a training loop that reads its loss only when it logs.

#include <functional>

#include <engine/engine.h>

namespace torch = engine;  // read torch:: as in LibTorch: only the names LibTorch has
namespace sim = engine::sim;  // the emulator's controls: its machines and processes
namespace py = engine::py;  // Python's own API, where LibTorch has none: py::time, py::torch::mps

namespace lab {

// Milliseconds per run of `work`, measured honestly: `warmup_runs` runs that are not timed, then
// `timed_runs` runs timed with py::time::perf_counter() between two points where the host
// has waited for the device. Returns the mean per timed run. Works on a machine without MPS,
// where there is nothing to wait for (and torch::mps::synchronize() would throw).
double time_gpu_ms(const std::function<void()>& work, int warmup_runs, int timed_runs);

// Runs `steps` training steps (each `step()` returns its loss, on the device). After every
// `log_every` steps, calls log(step number, mean loss of the last `log_every` steps). The host
// reads a loss only then: the losses add up on the device in between.
void train_and_log(const std::function<torch::Tensor()>& step, int steps, int log_every,
                   const std::function<void(int step, double mean_loss)>& log);

}  // namespace lab
