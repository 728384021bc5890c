// Lab 3 · Placement: the tests. Your step runs on mps on both Apple-silicon machines and on the
// cpu, and is compared with itself and with lesson 3's recipe, computed here on the cpu.

#include <cmath>
#include <string>

#include "03_placement/lab.h"
#include "harness/check.h"

namespace {

namespace F = torch::nn::functional;

const harness::LessonCell kMoveTogether("03_placement_and_one_training_step", "move_together");
const harness::LessonCell kBatchLeftOnCpu("03_placement_and_one_training_step", "batch_left_on_cpu");
const harness::LessonCell kSeededStep("03_placement_and_one_training_step", "seeded_step");
const harness::LessonCell kToReturnsANewTensor("01_metal_mps_and_unified_memory", "to_returns_a_new_tensor");

// Lesson 3's recipe (lab.h), on the cpu: the loss and the weight after one step.
lab::StepResult recipe(std::uint64_t seed) {
  torch::manual_seed(seed);
  torch::nn::Linear model(768, 3);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const auto batch = torch::randn({4, 32, 768});
  const auto logits = model(batch.mean({1}));
  const auto loss = F::cross_entropy(logits, torch::tensor({0, 2, 1, 0}));
  loss.backward();
  optimizer.step();
  return {loss.item<double>(), model->weight, logits};
}

double largest_difference(const torch::Tensor& a, const torch::Tensor& b) {
  const auto av = a.detach().cpu().to_vector<float>();
  const auto bv = b.detach().cpu().to_vector<float>();
  double largest = av.size() == bv.size() ? 0.0 : INFINITY;
  for (std::size_t i = 0; i < av.size() && i < bv.size(); ++i) largest = std::max(largest, std::abs(double(av[i]) - bv[i]));
  return largest;
}

// Whether `error` is PyTorch's complaint about a tensor on the wrong device, which lesson 3
// teaches to read ("Tensor for argument input is on cpu but expected on mps").
bool is_placement_error(const torch::Error& error) {
  const std::string what = error.what();
  return what.find(" is on ") != std::string::npos || what.find("same device") != std::string::npos;
}

}  // namespace

TEST_CASE("the repaired step trains on mps and its loss equals the cpu loss") {
  for (const char* machine : {"m3-max-64gb", "m1-8gb"}) {
    sim::use_machine(machine);
    INFO("on " << std::string(machine) << ", train_one_step(mps, seed 7)");
    const std::string placement =
        "Every tensor of the step must be on mps. `to()` returns a new tensor on the device and leaves its source "
        "where it was, so assign it (batch = batch.to(device)); model->to(device) moves the module's parameters in "
        "place." + kMoveTogether.see() + kToReturnsANewTensor.see() + kBatchLeftOnCpu.see();
    lab::StepResult on_mps;
    try {
      on_mps = lab::train_one_step(torch::Device("mps"), 7);
    } catch (const torch::Error& error) {
      if (!is_placement_error(error)) throw;  // another mistake: the report says what was raised
      FAIL_CHECK("it raised " << py::format_exception_only(error) << harness::why << placement);
      continue;
    }
    CHECK_MESSAGE(on_mps.weight.is_mps(), "the model's weight is on " << on_mps.weight.device().str() << harness::why
                                          << "Moving everything to the cpu silences the error, and the GPU with it.\n"
                                          << placement);
    CHECK_MESSAGE(on_mps.logits.is_mps(),
                  "the logits are on " << on_mps.logits.device().str() << harness::why << placement);
    const lab::StepResult on_cpu = lab::train_one_step(torch::Device("cpu"), 7);
    CHECK_MESSAGE(std::abs(on_mps.loss - on_cpu.loss) < 1e-5,
                  "the loss on mps is " << harness::fixed(on_mps.loss, 6) << ", on the cpu "
                  << harness::fixed(on_cpu.loss, 6) << "." << harness::why << "The same seed and the same step give "
                  "the same loss wherever they run, up to the last few bits (the GPU adds in another order; "
                  "lesson 7).");
  }
}

TEST_CASE("with the same seed the step reproduces lesson 3's recipe") {
  sim::use_machine("linux-x86_64");
  for (const std::uint64_t seed : {0, 7}) {
    INFO("train_one_step(cpu, seed " << seed << ")");
    const lab::StepResult yours = lab::train_one_step(torch::Device("cpu"), seed);
    const lab::StepResult expected = recipe(seed);
    const std::string order =
        "Your step draws random numbers in a different order: the recipe builds the model (whose initialisation "
        "draws from the generator) before it draws the batch." + kSeededStep.see();
    CHECK_MESSAGE(std::abs(yours.loss - expected.loss) < 1e-6,
                  "your step's loss is " << harness::fixed(yours.loss, 6) << " and lesson 3's recipe gives "
                  << harness::fixed(expected.loss, 6) << "." << harness::why << order);
    CHECK_MESSAGE(largest_difference(yours.weight, expected.weight) < 1e-6,
                  "the weight after the step differs from the recipe's" << harness::why << order);
  }
}
