// Lab 4 · Fallback: the tests. Real values on a small table where values matter; the fallback
// counters and the backend path of a training step on mps (sim::fallback_counts, backend_path)
// where the detour matters.

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "04_fallback/lab.h"
#include "harness/check.h"

namespace {

namespace F = torch::nn::functional;

const harness::LessonCell kWithFallback("04_cpu_fallback", "with_fallback");
const harness::LessonCell kStepTime("04_cpu_fallback", "fallback_step_time");
const harness::LessonCell kNotFallback("04_cpu_fallback", "cpu_work_is_not_fallback");
const harness::LessonCell kBoundaries("04_cpu_fallback", "fallback_boundary_count");

constexpr std::int64_t kVocabulary = 50, kWidth = 8, kReports = 4, kTokens = 6;

// Token ids as a tokenizer hands them over: int64 on the cpu, the same every time.
torch::Tensor token_ids() {
  torch::manual_seed(3);
  return (torch::rand({kReports, kTokens}) * static_cast<double>(kVocabulary)).to(torch::kInt64);
}

// The fallback's warning, kept out of the report (lesson 4 shows it).
class QuietWarnings {
 public:
  QuietWarnings() : old_(std::cerr.rdbuf(swallowed_.rdbuf())) {}
  ~QuietWarnings() { std::cerr.rdbuf(old_); }
  QuietWarnings(const QuietWarnings&) = delete;
  QuietWarnings& operator=(const QuietWarnings&) = delete;

 private:
  std::ostringstream swallowed_;
  std::streambuf* old_;
};

// One SGD step of the classifier on mps, the lookup through nn::EmbeddingBag or through your
// report_vectors; the loss is read for the log at the end.
void train_one_step(lab::BagClassifier& model, bool through_your_rewrite) {
  const QuietWarnings quiet;
  const torch::Device mps("mps");
  model.to(mps);
  torch::optim::SGD optimizer(model.parameters(), torch::optim::SGDOptions(0.5));
  const auto ids = token_ids().to(mps);
  const auto vectors = through_your_rewrite ? lab::report_vectors(model, ids) : model.bag(ids);
  const auto loss = F::cross_entropy(model.head(vectors), torch::tensor({0, 1, 2, 0}, mps));
  loss.backward();
  optimizer.step();
  loss.item<double>();
}

// Whether `error` is the NotImplementedError of an operator without an MPS kernel, which a step
// run without the fallback raises (lesson 4).
bool is_missing_kernel(const torch::Error& error) {
  return py::format_exception_only(error).rfind("NotImplementedError: ", 0) == 0;
}

// "(4, 8)"
std::string shape_of(const torch::Tensor& tensor) {
  std::string text;
  for (const std::int64_t size : tensor.sizes()) text += (text.empty() ? "" : ", ") + std::to_string(size);
  return "(" + text + ")";
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return names.empty() ? "none" : text;
}

}  // namespace

TEST_CASE("the hunt finds every operator that falls back, forward and backward") {
  sim::use_machine("m3-max-64gb");
  INFO("operators_that_fall_back(one SGD step through nn::EmbeddingBag) on m3-max-64gb"
       << harness::why << "PyTorch reads PYTORCH_ENABLE_MPS_FALLBACK once, when the process starts: setting it in a "
       "running process (os.environ in Python, os::setenv here) changes nothing, so start a new one with it "
       "(sim::restart_with_environment)." << kWithFallback);
  std::vector<std::string> found;
  try {
    found = lab::operators_that_fall_back([] {
      lab::BagClassifier model(kVocabulary, kWidth);
      train_one_step(model, false);
    });
  } catch (const torch::Error& error) {
    if (!is_missing_kernel(error)) throw;  // another mistake: the report says what was raised
    FAIL_CHECK("the step raised " << py::format_exception_only(error));
    return;
  }
  // What the engine's registry says a step through nn::EmbeddingBag needs from the cpu.
  sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", "1"}});
  lab::BagClassifier model(kVocabulary, kWidth);
  train_one_step(model, false);
  std::vector<std::string> expected;
  for (const auto& [name, count] : sim::fallback_counts()) expected.push_back(name);
  CHECK_MESSAGE(found == expected,
                "found: " << joined(found) << "; one step sends these to the cpu: " << joined(expected) << "."
                << harness::why << "The backward pass has operators of its own, and a step that only raises "
                "NotImplementedError stops at the first one.");
}

TEST_CASE("the rewrite computes the same report vectors as nn::EmbeddingBag") {
  sim::use_machine("linux-x86_64");
  torch::manual_seed(11);
  lab::BagClassifier model(kVocabulary, kWidth);
  const auto ids = token_ids();
  const auto expected = model.bag(ids).to_vector<float>();
  const torch::Tensor yours = lab::report_vectors(model, ids);
  REQUIRE_MESSAGE((yours.sizes().vec() == std::vector<std::int64_t>{kReports, kWidth}),
                  "report_vectors gave a tensor of shape " << shape_of(yours) << harness::why
                  << "It should give one row of " << kWidth << " values per report.");
  const auto values = yours.detach().to_vector<float>();
  double largest = 0;
  for (std::size_t i = 0; i < values.size(); ++i) largest = std::max(largest, std::abs(double(values[i]) - expected[i]));
  CHECK_MESSAGE(largest < 1e-6, "your vectors differ from nn::EmbeddingBag's by up to " << harness::fixed(largest, 4)
                                 << "." << harness::why << "EmbeddingBag's default mode is the mean of the bag's "
                                 "rows, not their sum." << kStepTime);
}

TEST_CASE("the training step no longer falls back") {
  for (const char* machine : {"m3-max-64gb", "m1-8gb"}) {
    sim::use_machine(machine);
    INFO("one SGD step through report_vectors on " << std::string(machine));
    try {
      lab::BagClassifier model(kVocabulary, kWidth);
      train_one_step(model, true);
    } catch (const torch::Error& error) {
      if (!is_missing_kernel(error)) throw;
      FAIL_CHECK("started without PYTORCH_ENABLE_MPS_FALLBACK, the step raised "
                 << py::format_exception_only(error) << harness::why
                 << "An operator without an MPS kernel stops the step: rewrite with operators that have one."
                 << kStepTime);
    }
    sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", "1"}});
    lab::BagClassifier model(kVocabulary, kWidth);
    train_one_step(model, true);
    std::vector<std::string> fell_back;
    for (const auto& [name, count] : sim::fallback_counts()) fell_back.push_back(name);
    CHECK_MESSAGE(fell_back.empty(), "with the fallback enabled these still ran on the cpu: " << joined(fell_back)
                                     << harness::why << "Each of them has no MPS kernel: rewrite it with "
                                     "operators that have one." << kWithFallback);
  }
}

TEST_CASE("one training step changes backend only at its two chosen boundaries") {
  sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", "1"}});
  lab::BagClassifier model(kVocabulary, kWidth);
  train_one_step(model, true);  // warm-up
  sim::clear_backend_path();
  train_one_step(model, true);
  const std::vector<std::string> path = sim::backend_path();
  std::string shown;
  for (const std::string& stage : path) shown += (shown.empty() ? "" : " -> ") + stage;
  CHECK_MESSAGE((path == std::vector<std::string>{"cpu", "mps", "cpu"}),
                "one step ran: " << shown << "." << harness::why << "The batch comes from the tokenizer on the cpu "
                "and the loss goes back for the log: those two boundaries are yours to choose. Every other change "
                "of backend waits for the GPU and copies data, whether PyTorch's fallback makes it or a detour you "
                "wrote yourself." << kNotFallback << kBoundaries);
}

TEST_CASE("the embedding table still learns") {
  sim::use_machine("m3-max-64gb");
  lab::BagClassifier model(kVocabulary, kWidth);
  const torch::Tensor before = model.bag->weight.detach().clone();
  train_one_step(model, true);
  CHECK_MESSAGE(!torch::equal(before, model.bag->weight.detach().cpu()),
                "after a training step the embedding table is unchanged: it receives no gradient." << harness::why
                << "A rewrite that reads a detached table drops the backward pass the fallback needed, and the "
                "learning with it.");
}
