// Lab 6 · Memory: the reference solution.

#include <limits>

#include "06_memory/lab.h"

namespace lab {

namespace F = torch::nn::functional;

namespace {

// Seconds per report of one warm step at `reports`, timed between two synchronizations.
double seconds_per_report(const std::function<void(std::int64_t)>& train_step, std::int64_t reports) {
  train_step(reports);  // warm-up: new shapes build new graphs
  torch::mps::synchronize();
  const double start = py::time::perf_counter();
  train_step(reports);
  torch::mps::synchronize();
  return (py::time::perf_counter() - start) / static_cast<double>(reports);
}

}  // namespace

std::int64_t largest_batch(const std::function<void(std::int64_t reports)>& train_step) {
  std::int64_t largest = 0;
  double fastest = std::numeric_limits<double>::infinity();
  for (std::int64_t reports = 1;; reports *= 2) {
    double per_report = 0;
    try {
      per_report = seconds_per_report(train_step, reports);
    } catch (const torch::Error&) {
      break;  // the allocator refused: out of memory
    }
    if (per_report > 1.5 * fastest) break;  // the cliff: part of the batch now lives in swap
    fastest = std::min(fastest, per_report);
    largest = reports;
  }
  return largest;
}

double memory_growth(const std::vector<std::int64_t>& driver_bytes_per_epoch) {
  const auto first = static_cast<double>(driver_bytes_per_epoch.front());
  return static_cast<double>(driver_bytes_per_epoch.back()) / first - 1;
}

EpochLog train_and_keep_vectors(int epochs, int steps) {
  const sim::ShapeOnlyGuard shape_only;  // sizes matter here, not values
  const torch::Device device("mps");
  torch::nn::Linear model(768, 3);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters());
  const auto labels = torch::zeros({32}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  EpochLog log;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int step = 0; step < steps; ++step) {
      const auto batch = torch::randn({32, 128, 768}, device);
      const auto vectors = batch.mean({1});
      optimizer.zero_grad();
      F::cross_entropy(model(vectors), labels).backward();
      optimizer.step();
      log.kept_vectors.push_back(vectors.detach().cpu());  // the analysis needs them; the GPU does not
    }
    py::torch::mps::empty_cache();
    log.driver_bytes.push_back(py::torch::mps::driver_allocated_memory());
  }
  return log;
}

}  // namespace lab
