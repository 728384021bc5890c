// Lab 8 · The whole step: the tests. Your choice of workers is run: the loader starts that many
// on the M3 Max, where the step must then take no longer than its compute, and on the 8 GB M1
// beside a training run that holds 3 GiB, where they must fit without swapping. Your
// accumulation is compared with the gradient of the whole batch, and your loop's waits are read
// off the host's timeline.

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "08_whole_step/lab.h"
#include "harness/check.h"

namespace {

namespace F = torch::nn::functional;
using py::torch::utils::data::DataLoader;
using py::torch::utils::data::DataLoaderOptions;

const harness::LessonCell kSplit("09_the_whole_step/09_1_the_input_pipeline", "data_only_compute_only");
const harness::LessonCell kWorkers("09_the_whole_step/09_1_the_input_pipeline", "workers_hide_it");
const harness::LessonCell kMemory("09_the_whole_step/09_1_the_input_pipeline", "workers_against_memory");
const harness::LessonCell kAccumulate("09_the_whole_step/09_2_the_host_and_memory", "accumulate_gradients");
const harness::LessonCell kSync("09_the_whole_step/09_2_the_host_and_memory", "sync_in_the_loop");

constexpr std::int64_t kBatch = 64;

// A small convolutional classifier's training step on mps, shape-only: its loss.
struct Step {
  torch::Tensor conv1 = torch::randn({64, 3, 7, 7}, torch::Device("mps")).requires_grad_();
  torch::Tensor conv2 = torch::randn({128, 64, 3, 3}, torch::Device("mps")).requires_grad_();
  torch::Tensor head = torch::randn({1000, 128}, torch::Device("mps")).requires_grad_();
  torch::optim::SGD optimizer{{conv1, conv2, head}, torch::optim::SGDOptions(0.1)};
  torch::Tensor operator()(const torch::Tensor& images, const torch::Tensor& labels) {
    optimizer.zero_grad();
    auto x = F::relu(F::conv2d(images, conv1, F::Conv2dFuncOptions().stride(2).padding(3)));
    x = F::relu(F::conv2d(x, conv2, F::Conv2dFuncOptions().stride(2).padding(1)));
    const auto loss = F::cross_entropy(F::linear(x.mean({2, 3}), head), labels);
    loss.backward();
    optimizer.step();
    return loss;
  }
};

// The step as train() takes it.
std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)> as_function(Step& step) {
  return [&step](const torch::Tensor& images, const torch::Tensor& labels) { return step(images, labels); };
}

DataLoader photos(std::int64_t workers) {
  return DataLoader(sim::data::JpegImageFolder(),
                    DataLoaderOptions{.batch_size = kBatch, .num_workers = workers,
                                      .persistent_workers = workers > 0});
}

// The runbook's split on this machine, as lesson 9 measures it, and its memory to spare.
lab::LoaderBudget measure(Step& step) {
  lab::LoaderBudget budget;
  {
    DataLoader loader = photos(0);
    auto it = loader.begin();
    const double start = py::time::perf_counter();
    for (int i = 0; i < 2; ++i) ++it;
    budget.data_seconds_per_batch = (py::time::perf_counter() - start) / 2;
  }
  const auto images = torch::randn({kBatch, 3, 224, 224}, torch::Device("mps"));
  const auto labels = torch::zeros({kBatch}, torch::TensorOptions().dtype(torch::kInt64).device(torch::Device("mps")));
  step(images, labels);  // warm-up
  torch::mps::synchronize();
  const double start = py::time::perf_counter();
  step(images, labels);
  torch::mps::synchronize();
  budget.step_seconds = py::time::perf_counter() - start;
  {
    DataLoader one = photos(1);
    auto it = one.begin();
    budget.bytes_per_worker = sim::memory_use().dataloader_workers;
  }
  const sim::MemoryUse use = sim::memory_use();
  budget.free_bytes = use.swaps() ? 0 : use.machine - use.in_use();
  return budget;
}

std::string summary(const lab::LoaderBudget& b) {
  return "data " + harness::fixed(b.data_seconds_per_batch * 1e3, 1) + " ms a batch, step " +
         harness::fixed(b.step_seconds * 1e3, 1) + " ms, " +
         harness::fixed(static_cast<double>(b.free_bytes) / (1ULL << 30), 2) + " GiB free, " +
         harness::fixed(static_cast<double>(b.bytes_per_worker) / (1ULL << 30), 2) + " GiB a worker";
}

// Spans of the host named `name` while `body` runs.
template <typename Body>
int host_waits(const std::string& name, const Body& body) {
  const sim::TimelineRecording recording;
  body();
  int count = 0;
  for (const sim::Span& s : recording.spans()) count += s.track == "host" && s.name == name;
  return count;
}

}  // namespace

TEST_CASE("a loop whose data is faster than its step gets no workers") {
  sim::use_machine("m3-max-64gb");
  const lab::LoaderBudget budget{.data_seconds_per_batch = 0.030, .step_seconds = 0.040,
                                 .bytes_per_worker = 1ULL << 29, .free_bytes = 8ULL << 30};
  const std::int64_t workers = lab::choose_workers(budget);
  CHECK_MESSAGE(workers == 0, "for a loop whose data takes 30 ms a batch and whose step takes 40 ms, you chose "
                                  << workers << " workers" << harness::why
                                  << "The step bounds this loop: workers would only hold memory." << kSplit);
}

TEST_CASE("on the M3 Max, the chosen workers hide the data: a step takes its compute's time") {
  sim::use_machine("m3-max-64gb");
  torch::manual_seed(0);
  const sim::ShapeOnlyGuard shape_only;
  Step step;
  const lab::LoaderBudget budget = measure(step);
  INFO("on m3-max-64gb: " << summary(budget));
  const std::int64_t workers = lab::choose_workers(budget);
  DataLoader loader = photos(workers);
  // The time at each log, which follows that step's loss read: past the workers' start, the
  // steps from 20 to 60 show the loop's steady pace.
  std::vector<double> logged_at;
  lab::train(loader, 60, 20, as_function(step), [&](int, double) { logged_at.push_back(py::time::perf_counter()); });
  REQUIRE_MESSAGE(logged_at.size() == 3, "60 steps logged every 20 should log 3 times; yours logged " << logged_at.size());
  const double per_step = (logged_at[2] - logged_at[0]) / 40;
  CHECK_MESSAGE(per_step < 1.1 * budget.step_seconds,
                "with your " << workers << " workers a step took " << harness::fixed(per_step * 1e3, 1)
                             << " ms; its compute alone takes " << harness::fixed(budget.step_seconds * 1e3, 1)
                             << " ms." << harness::why
                             << "n workers load n batches in the time one process loads one: to keep up with a "
                                "step each, n must be at least the data's time over the step's."
                             << kWorkers);
}

TEST_CASE("on the 8 GB M1, the chosen workers fit in memory beside the training") {
  sim::use_machine("m1-8gb");
  torch::manual_seed(0);
  const sim::ShapeOnlyGuard shape_only;
  std::vector<torch::Tensor> training;  // what a bigger model's training holds on the GPU: 3 GiB
  for (int i = 0; i < 3; ++i) training.push_back(torch::zeros({1LL << 28}, torch::Device("mps")));
  Step step;
  const lab::LoaderBudget budget = measure(step);
  INFO("on m1-8gb: " << summary(budget));
  const std::int64_t workers = lab::choose_workers(budget);
  DataLoader loader = photos(workers);
  auto it = loader.begin();
  const sim::MemoryUse use = sim::memory_use();
  CHECK_MESSAGE(!use.swaps(),
                "your " << workers << " workers hold "
                        << harness::fixed(static_cast<double>(use.dataloader_workers) / (1ULL << 30), 2)
                        << " GiB, and the Mac now has "
                        << harness::fixed(static_cast<double>(use.in_use()) / (1ULL << 30), 2) << " GiB in use of "
                        << harness::fixed(static_cast<double>(use.machine) / (1ULL << 30), 2) << ": macOS swaps."
                        << harness::why
                        << "Every spawned worker is a resident process in the same unified memory as the GPU's "
                           "tensors: no more workers than free_bytes / bytes_per_worker."
                        << kMemory);
  CHECK_MESSAGE(workers > 0, "you chose no workers for a loop whose data takes longer than its step"
                                 << harness::why << "Workers that fit are worth starting." << kSplit);
}

TEST_CASE("accumulated micro-batches leave the whole batch's gradient") {
  sim::use_machine("m3-max-64gb");
  torch::manual_seed(0);
  const auto x = torch::randn({8, 16});
  const auto y = torch::tensor({0, 3, 1, 2, 2, 0, 1, 3}).to(torch::kInt64);
  const auto weight = (torch::randn({4, 16}) * 0.1).requires_grad_();
  F::cross_entropy(F::linear(x, weight), y).backward();
  const std::vector<float> whole = weight.grad().to_vector<float>();
  weight.set_grad(torch::Tensor());
  lab::accumulate(
      [&](int i) {
        return F::cross_entropy(F::linear(x.slice(0, 2 * i, 2 * i + 2), weight), y.slice(0, 2 * i, 2 * i + 2));
      },
      4);
  REQUIRE_MESSAGE(weight.grad().defined(), "after accumulate(), the weight has no gradient"
                                               << harness::why << "Call backward() on each micro-batch's loss."
                                               << kAccumulate);
  const std::vector<float> yours = weight.grad().to_vector<float>();
  double ratio = 0;
  for (std::size_t i = 0; i < whole.size(); ++i) ratio = std::max(ratio, static_cast<double>(std::abs(yours[i] / whole[i])));
  bool same = true;
  for (std::size_t i = 0; i < whole.size(); ++i) same = same && std::abs(yours[i] - whole[i]) < 1e-5;
  CHECK_MESSAGE(same, "4 micro-batches of 2 left a gradient up to " << harness::fixed(ratio, 2)
                          << " times the batch of 8's." << harness::why
                          << "Each micro-batch's loss is a mean over its own 2 examples; their gradients add up "
                             "in .grad, so divide each loss by the number of micro-batches."
                          << kAccumulate);
}

TEST_CASE("the loop reads the loss on the host only when it logs, and copies batches without waiting") {
  sim::use_machine("m3-max-64gb");
  torch::manual_seed(0);
  const sim::ShapeOnlyGuard shape_only;
  Step step;
  DataLoader loader = photos(4);
  std::vector<int> logged;
  int reads = 0, copies = 0;
  copies = host_waits("wait: copy to mps", [&] {
    reads = host_waits("wait: copy to cpu", [&] {
      lab::train(loader, 12, 5, as_function(step), [&](int n, double) { logged.push_back(n); });
    });
  });
  CHECK_MESSAGE(reads <= 2, "over 12 steps logged every 5, the host waited to read a loss "
                                << reads << " times" << harness::why
                                << "loss.item() is a sync point: call it only for the steps you log." << kSync);
  CHECK_MESSAGE(copies == 0, "the host waited for " << copies << " copies of a batch to the GPU"
                                                      << harness::why
                                                      << "to(device, /*non_blocking=*/true) queues the copy behind "
                                                         "the GPU's work instead of waiting for it."
                                                      << kWorkers);
  CHECK_MESSAGE((logged == std::vector<int>{5, 10}),
                "the loop logged " << logged.size() << " times" << harness::why
                                   << "With 12 steps and log_every 5, log after steps 5 and 10.");
}
