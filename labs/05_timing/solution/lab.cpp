// Lab 5 · Timing: the reference solution.

#include "05_timing/lab.h"

namespace lab {

namespace {

// The host waits for the device; without MPS every op has finished when it returns.
void wait_for_device() {
  if (torch::mps::is_available()) torch::mps::synchronize();
}

}  // namespace

double time_gpu_ms(const std::function<void()>& work, int warmup_runs, int timed_runs) {
  for (int i = 0; i < warmup_runs; ++i) work();  // the first runs build the graphs
  wait_for_device();
  const double start = py::time::perf_counter();
  for (int i = 0; i < timed_runs; ++i) work();
  wait_for_device();
  return (py::time::perf_counter() - start) * 1e3 / timed_runs;
}

void train_and_log(const std::function<torch::Tensor()>& step, int steps, int log_every,
                   const std::function<void(int step, double mean_loss)>& log) {
  torch::Tensor running;  // the sum of the losses since the last log, on the device
  for (int n = 1; n <= steps; ++n) {
    const torch::Tensor loss = step().detach();
    running = running.defined() ? running + loss : loss;
    if (n % log_every == 0) {
      log(n, running.cpu().item<double>() / log_every);  // the one sync point
      running = torch::Tensor();
    }
  }
}

}  // namespace lab
