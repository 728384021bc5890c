// Lab 6 · Memory: the tests. The batch your sweep chooses is trained again here, and the
// machine's own numbers decide whether it fits: the process's GPU memory (driver_allocated_memory)
// beside what the other applications hold must fit in the machine's memory, or macOS swaps.

#include <cmath>
#include <string>
#include <vector>

#include "06_memory/lab.h"
#include "harness/check.h"

namespace {

namespace F = torch::nn::functional;

const harness::LessonCell kBatchSweep("06_memory_pressure/06_1_the_bill_and_the_limits", "batch_sweep");
const harness::LessonCell kCounters("06_memory_pressure/06_1_the_bill_and_the_limits", "counters_del_and_empty_cache");
const harness::LessonCell kRetained("06_memory_pressure/06_2_what_to_do_about_it", "retained_tensors");
const harness::LessonCell kNaiveVsSynchronized("05_timing_and_synchronization/05_1_timing_gpu_work", "naive_vs_synchronized");

// One Adam step on a batch of `reports` reports, from an empty cache: lesson 6's three-layer
// encoder (768 wide, with ReLUs) under the classifier. Its activations, each the size of the
// batch, are what fills memory; no single tensor comes near Metal's maximum buffer length.
void train_step(std::int64_t reports) {
  py::torch::mps::empty_cache();  // each size starts afresh, as a new run would
  const sim::ShapeOnlyGuard shape_only;
  const torch::Device device("mps");
  torch::nn::Sequential model{torch::nn::Linear(768, 768), torch::nn::ReLU(), torch::nn::Linear(768, 768),
                              torch::nn::ReLU(), torch::nn::Linear(768, 768), torch::nn::ReLU()};
  torch::nn::Linear head(768, 3);
  model->to(device);
  head->to(device);
  std::vector<torch::Tensor> parameters = model->parameters();
  for (const torch::Tensor& p : head->parameters()) parameters.push_back(p);
  torch::optim::Adam optimizer(parameters);
  const auto batch = torch::randn({reports, 128, 768}, device);
  const auto labels = torch::zeros({reports}, torch::TensorOptions().dtype(torch::kInt64).device(device));
  F::cross_entropy(head(model(batch).mean({1})), labels).backward();
  optimizer.step();
}

std::string gib(double bytes) { return harness::fixed(bytes / (1LL << 30), 2) + " GiB"; }

// What happened when the test trained `reports` reports: "" if it fit, else why not.
std::string why_it_does_not_fit(std::int64_t reports) {
  try {
    train_step(reports);
  } catch (const torch::Error& error) {
    return "it ran out of memory: " + py::format_exception_only(error);
  }
  const sim::MachineProfile& machine = sim::machine();
  const auto gpu = static_cast<double>(py::torch::mps::driver_allocated_memory());
  const auto others = static_cast<double>(machine.other_apps_bytes);
  if (gpu + others <= static_cast<double>(machine.memory_bytes)) return "";
  return "it swaps: " + gib(gpu) + " on the GPU beside " + gib(others) + " of other applications is more than the " +
         gib(static_cast<double>(machine.memory_bytes)) + " of memory";
}

bool is_power_of_two(std::int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace

TEST_CASE("the batch trains without swapping or running out of memory") {
  for (const char* machine : {"m1-8gb", "m3-max-64gb"}) {
    sim::use_machine(machine);
    INFO("on " << std::string(machine));
    const std::int64_t reports = lab::largest_batch(train_step);
    INFO("largest_batch() chose " << reports << " reports");
    REQUIRE_MESSAGE(is_power_of_two(reports),
                    harness::why << "The sweep doubles the batch, so its answer is a power of two.");
    const std::string problem = why_it_does_not_fit(reports);
    CHECK_MESSAGE(problem.empty(), "but " << problem << "." << harness::why << "A batch that swaps trains, slowly: "
                                          "the time per report jumps before the allocator ever refuses, so stopping "
                                          "only at an out-of-memory error is too late." << kBatchSweep);
  }
}

TEST_CASE("twice the batch would swap or run out of memory") {
  for (const char* machine : {"m1-8gb", "m3-max-64gb"}) {
    sim::use_machine(machine);
    INFO("on " << std::string(machine));
    const std::int64_t reports = lab::largest_batch(train_step);
    CHECK_MESSAGE(!why_it_does_not_fit(2 * reports).empty(),
                  "largest_batch() chose " << reports << " reports, yet "
                  << 2 * reports << " also trains without swapping." << harness::why << "A rule of thumb leaves "
                  "memory unused, and so does a timer that does not wait for the GPU: it measures the queue (and "
                  "whatever wait happens to fall inside it), whose jumps are not the GPU's. Measure honestly, "
                  "doubling until the time per report jumps or the allocator refuses."
                  << kBatchSweep << kNaiveVsSynchronized);
  }
}

TEST_CASE("memory growth is measured from the first epoch") {
  struct Case {
    std::vector<std::int64_t> bytes;
    double growth;
  };
  for (const Case& c : {Case{{100, 110, 130}, 0.30}, Case{{200, 200}, 0.0}, Case{{100, 90}, -0.10}, Case{{8, 24}, 2.0}}) {
    const double growth = lab::memory_growth(c.bytes);
    CHECK_MESSAGE(std::abs(growth - c.growth) < 1e-9,
                  "from " << c.bytes.front() << " to " << c.bytes.back() << " bytes the growth is "
                  << harness::fixed(c.growth, 2) << ", not " << harness::fixed(growth, 2) << "." << harness::why
                  << "The runbook's 26 % is relative to the first epoch." << kRetained);
  }
}

TEST_CASE("the loop's memory stays flat over ten epochs") {
  for (const char* machine : {"m1-8gb", "m3-max-64gb"}) {
    sim::use_machine(machine);
    INFO("on " << std::string(machine));
    const lab::EpochLog log = lab::train_and_keep_vectors(10, 20);
    REQUIRE_MESSAGE(log.driver_bytes.size() == 10, "10 epochs recorded " << log.driver_bytes.size()
                                                   << " driver memories" << harness::why
                                                   << "Record the driver memory once per epoch.");
    const double growth = static_cast<double>(log.driver_bytes.back()) / static_cast<double>(log.driver_bytes.front()) - 1;
    const std::int64_t held = py::torch::mps::current_allocated_memory();  // the model is gone; the log is not
    CHECK_MESSAGE((growth <= 0.26 && held == 0),
                  "driver memory grew " << harness::fixed(100 * growth, 0)
                  << " % from epoch 1 to epoch 10 (the runbook suspects retained tensors above 26 %), and after "
                  "the loop its log holds " << harness::fixed(static_cast<double>(held) / (1 << 20), 2)
                  << " MiB of GPU memory." << harness::why << "empty_cache() returns cached memory only: a tensor "
                  "you keep is in use. detach() cuts the autograd graph but leaves the tensor on the GPU; .cpu() "
                  "moves it off." << kCounters << kRetained);
  }
}

TEST_CASE("every step's vectors are kept for the analysis") {
  sim::use_machine("m3-max-64gb");
  const lab::EpochLog log = lab::train_and_keep_vectors(2, 5);
  REQUIRE_MESSAGE(log.kept_vectors.size() == 10, "2 epochs of 5 steps keep 10 sets of vectors; the log has "
                                                     << log.kept_vectors.size());
  for (const torch::Tensor& vectors : log.kept_vectors) {
    CHECK_MESSAGE((vectors.sizes().vec() == std::vector<std::int64_t>{32, 768}),
                  harness::why << "Each step keeps its (32, 768) report vectors.");
  }
}
