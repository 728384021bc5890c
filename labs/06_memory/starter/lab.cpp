// Lab 6 · Memory: your code. Replace each TODO line with the code it asks for; lab.h says what
// each function must do. `build/course verify 06` runs the tests.

#include "06_memory/lab.h"

namespace lab {

namespace F = torch::nn::functional;

std::int64_t largest_batch(const std::function<void(std::int64_t reports)>& train_step) {
  TODO("6.1", "double the batch from 1; time a warm step per report at each size; stop at out of memory or the swap cliff");
}

double memory_growth(const std::vector<std::int64_t>& driver_bytes_per_epoch) {
  TODO("6.2", "the last epoch's bytes over the first epoch's, minus one");
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
      TODO("6.3", "keep the vectors for the analysis without keeping them on the GPU");
      log.kept_vectors.push_back(vectors);
    }
    py::torch::mps::empty_cache();
    log.driver_bytes.push_back(py::torch::mps::driver_allocated_memory());
  }
  return log;
}

}  // namespace lab
