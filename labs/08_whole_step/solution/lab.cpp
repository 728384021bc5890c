// Lab 8 · The whole step: the reference solution.

#include "08_whole_step/lab.h"

#include <algorithm>
#include <cmath>

namespace lab {

std::int64_t choose_workers(const LoaderBudget& budget) {
  if (budget.data_seconds_per_batch <= budget.step_seconds) return 0;  // not input-bound
  // n workers deliver n batches per data time; that must keep up with a step each.
  const auto needed =
      static_cast<std::int64_t>(std::ceil(budget.data_seconds_per_batch / budget.step_seconds)) + 1;
  const auto fit = static_cast<std::int64_t>(budget.free_bytes / budget.bytes_per_worker);
  return std::min(needed, fit);  // more than fit would swap
}

void accumulate(const std::function<torch::Tensor(int i)>& loss_of, int micro_batches) {
  for (int i = 0; i < micro_batches; ++i) {
    const torch::Tensor loss = loss_of(i) / micro_batches;  // the sum is then the batch's mean
    loss.backward();
  }
}

void train(py::torch::utils::data::DataLoader& loader, int steps, int log_every,
           const std::function<torch::Tensor(const torch::Tensor& images,
                                             const torch::Tensor& labels)>& step,
           const std::function<void(int step, double loss)>& log) {
  const torch::Device device("mps");
  int n = 0;
  for (const auto& batch : loader) {
    if (n == steps) break;
    const torch::Tensor loss =
        step(batch.data.to(device, /*non_blocking=*/true), batch.target.to(device, true));
    ++n;
    if (n % log_every == 0) log(n, loss.item<double>());  // the one sync point
  }
}

}  // namespace lab
