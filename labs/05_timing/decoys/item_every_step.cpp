// Decoy: reads every loss on the host as it comes, for a progress bar, and averages the numbers.
// Fails: "the loop reads the loss on the host only when it logs"
// Says: "sync point"

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
  const double start = torch::time::perf_counter();
  for (int i = 0; i < timed_runs; ++i) work();
  wait_for_device();
  return (torch::time::perf_counter() - start) * 1e3 / timed_runs;
}

void train_and_log(const std::function<torch::Tensor()>& step, int steps, int log_every,
                   const std::function<void(int step, double mean_loss)>& log) {
  double sum = 0;
  for (int n = 1; n <= steps; ++n) {
    sum += step().item<double>();  // the progress bar wants a number
    if (n % log_every == 0) {
      log(n, sum / log_every);
      sum = 0;
    }
  }
}

}  // namespace lab
