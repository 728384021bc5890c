// Lab 5 · Timing: your code. Replace each TODO line with the code it asks for; lab.h says what
// each function must do. `build/course verify 05` runs the tests.

#include "05_timing/lab.h"

namespace lab {

double time_gpu_ms(const std::function<void()>& work, int warmup_runs, int timed_runs) {
  TODO("5.1", "warm up: run `work` warmup_runs times before timing anything");
  TODO("5.2", "let the device finish what is queued (if there is one), then start the clock");
  for (int i = 0; i < timed_runs; ++i) work();
  TODO("5.3", "let the device finish the timed runs, then stop the clock");
  TODO("5.4", "return the milliseconds per timed run");
}

void train_and_log(const std::function<torch::Tensor()>& step, int steps, int log_every,
                   const std::function<void(int step, double mean_loss)>& log) {
  for (int n = 1; n <= steps; ++n) {
    const torch::Tensor loss = step();
    TODO("5.5", "add the loss to a running sum that stays on the device");
    if (n % log_every == 0) {
      TODO("5.6", "read the sum on the host once, log its mean, and start a new sum");
    }
  }
}

}  // namespace lab
