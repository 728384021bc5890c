#pragma once
// Python's time module on the simulated host: perf_counter() reads the simulated host clock,
// so timings are deterministic and can be documented, and sleep() spends host time (for work a
// script does outside PyTorch, such as loading and tokenizing data).

namespace engine::py::time {

double perf_counter();  // seconds
void sleep(double seconds);

}  // namespace engine::py::time
