// Operators without an MPS kernel: PyTorch 2.9's NotImplementedError without
// PYTORCH_ENABLE_MPS_FALLBACK, and with it the cpu fallback: one warning per process, blocking
// copies, results back on mps, counters and the backend path.

#include <doctest/doctest.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/nn/embedding_bag.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/os.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "test_support.h"

using engine::Device;
using engine::Tensor;
using test_support::error_of;
namespace F = engine::nn::functional;

namespace {

// What the code under test writes to std::cerr, where Python's warnings go.
Tensor token_ids(Device device) {
  return engine::tensor({0, 2, 4, 1, 3, 3}, device).reshape({2, 3});  // two bags of three tokens
}

void start_with_fallback(const std::string& value) {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", value}});
}

// A weight that needs no gradient takes aten::_embedding_bag_forward_only (at::embedding_bag,
// ATen/native/EmbeddingBag.cpp), the operator every test here reaches unless it trains.
const std::string kNotImplemented =
    "The operator 'aten::_embedding_bag_forward_only' is not currently implemented for the MPS device. If you want "
    "this op to be considered for addition please comment on https://github.com/pytorch/pytorch/issues/141287 "
    "and mention use-case, that resulted in missing op as well as commit hash "
    "0fabc3ba44823f257e70ce397d989c8de5e362c1. As a temporary fix, you can set the environment variable "
    "`PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for this op. WARNING: this will be "
    "slower than running natively on MPS.";

}  // namespace

TEST_CASE("the op registry names EmbeddingBag's operators as missing on mps") {
  CHECK(engine::sim::operators_without_mps_kernel() ==
        std::vector<std::string>{"aten::_embedding_bag", "aten::_embedding_bag_forward_only",
                                 "aten::_embedding_bag_dense_backward"});
}

TEST_CASE("embedding_bag's operator is the forward-only one unless the weight needs a gradient") {
  start_with_fallback("1");
  test_support::CaptureStderr quiet;
  const Tensor frozen = engine::randn({5, 4}, Device("mps"));
  const Tensor trained = engine::randn({5, 4}, Device("mps")).requires_grad_();
  F::embedding_bag(token_ids(Device("mps")), frozen);
  F::embedding_bag(token_ids(Device("mps")), trained);
  {
    engine::NoGradGuard no_grad;  // the weight still requires grad: the full operator
    F::embedding_bag(token_ids(Device("mps")), trained);
  }
  CHECK(engine::sim::fallback_counts() ==
        std::map<std::string, std::int64_t>{{"aten::_embedding_bag", 2},
                                            {"aten::_embedding_bag_forward_only", 1}});
}

TEST_CASE(
    "without PYTORCH_ENABLE_MPS_FALLBACK an op without an MPS kernel raises NotImplementedError") {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::restart_with_environment({});
  engine::py::os::unsetenv("PYTORCH_ENABLE_MPS_FALLBACK");
  const Tensor weight = engine::randn({5, 4}, Device("mps"));
  try {
    F::embedding_bag(token_ids(Device("mps")), weight);
    FAIL("no error");
  } catch (const engine::Error& e) {
    CHECK(e.python_type() == "NotImplementedError");
    CHECK(std::string(e.what()) == kNotImplemented);
  }
  CHECK(engine::sim::fallback_counts().empty());
}

TEST_CASE("the variable counts only at start-up, and std::stoi decides what it says") {
  engine::sim::use_machine("m3-max-64gb");
  engine::py::os::setenv("PYTORCH_ENABLE_MPS_FALLBACK",
                         "1");  // too late: torch was imported already
  const Tensor weight = engine::randn({5, 4}, Device("mps"));
  CHECK(error_of([&] { F::embedding_bag(token_ids(Device("mps")), weight); }) == kNotImplemented);
  // MPSFallback.mm: `!value || std::stoi(value) == 0` keeps the error.
  for (const auto& setting :
       {std::pair{"0", false}, std::pair{"00", false}, std::pair{"0.0", false},
        std::pair{" 0", false}, std::pair{"1", true}, std::pair{"2", true}, std::pair{"1.5", true},
        std::pair{"-1", true}, std::pair{" 1 yes", true}}) {
    const std::string value = setting.first;
    const bool enabled = setting.second;
    CAPTURE(value);
    start_with_fallback(value);
    const Tensor w = engine::randn({5, 4}, Device("mps"));
    test_support::CaptureStderr quiet;
    CHECK((error_of([&] { F::embedding_bag(token_ids(Device("mps")), w); }) == "no error") ==
          enabled);
  }
}

TEST_CASE("a value std::stoi cannot read aborts the process at import, on a build with MPS only") {
  const std::string uncaught = "libc++abi: terminating due to uncaught exception of type ";
  for (const auto& case_ : {std::pair{"false", "std::invalid_argument: stoi: no conversion"},
                            std::pair{"", "std::invalid_argument: stoi: no conversion"},
                            std::pair{"yes", "std::invalid_argument: stoi: no conversion"},
                            std::pair{"99999999999", "std::out_of_range: stoi: out of range"}}) {
    // Named variables, not a structured binding: clang before 16 cannot capture a binding in
    // the lambda CAPTURE makes.
    const std::string value = case_.first, message = case_.second;
    CAPTURE(value);
    engine::sim::use_machine("m3-max-64gb");
    CHECK_THROWS_WITH_AS(
        engine::sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", value}}),
        (uncaught + message).c_str(), engine::sim::ProcessAborted);
    engine::sim::use_machine("linux-x86_64");  // no MPS backend: nothing reads the variable
    CHECK_NOTHROW(engine::sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", value}}));
  }
}

TEST_CASE("a variable mapped to nullopt is removed from the new process's environment") {
  ::setenv("PYTORCH_ENABLE_MPS_FALLBACK", "1", 1);  // as if the learner's shell exported it
  engine::sim::use_machine("m3-max-64gb");
  CHECK(engine::py::os::getenv("PYTORCH_ENABLE_MPS_FALLBACK") == "1");
  engine::sim::restart_with_environment({{"PYTORCH_ENABLE_MPS_FALLBACK", std::nullopt}});
  CHECK_FALSE(engine::py::os::getenv("PYTORCH_ENABLE_MPS_FALLBACK").has_value());
  ::unsetenv("PYTORCH_ENABLE_MPS_FALLBACK");
}

TEST_CASE("float indices are refused, the tensor's type named as PyTorch's Python layer names it") {
  engine::sim::use_machine("m3-max-64gb");
  const std::string refused =
      "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ";
  CHECK(error_of([] {
          F::embedding_bag(engine::zeros({2, 3}), engine::randn({5, 4}));
        }) == refused + "torch.FloatTensor instead (while checking arguments for embedding_bag)");
  // torch::processErrorMsg translates only cpu and cuda type names: an mps one keeps c10's.
  CHECK(error_of([] {
          F::embedding_bag(engine::zeros({2, 3}, Device("mps")),
                           engine::randn({5, 4}, Device("mps")));
        }) == refused + "MPSFloatType instead (while checking arguments for embedding_bag)");
}

TEST_CASE("with the fallback, the op runs on the cpu, warns once and returns to mps") {
  start_with_fallback("1");
  engine::manual_seed(0);
  const Tensor weight_cpu = engine::randn({5, 4});
  const Tensor weight = weight_cpu.to(Device("mps"));
  test_support::CaptureStderr err;
  const Tensor first = F::embedding_bag(token_ids(Device("mps")), weight);
  const Tensor second = F::embedding_bag(token_ids(Device("mps")), weight,
                                         F::EmbeddingBagFuncOptions().mode(engine::kSum));
  CHECK(first.device() == Device("mps:0"));
  CHECK(
      err.text() ==
      "UserWarning: The operator 'aten::_embedding_bag_forward_only' is not currently supported on the MPS "
      "backend and will fall back to run on the CPU. This may have performance implications.\n");
  CHECK(engine::equal(first.cpu(), F::embedding_bag(token_ids(Device("cpu")), weight_cpu)));
  CHECK(engine::equal(second.cpu(),
                      F::embedding_bag(token_ids(Device("cpu")), weight_cpu,
                                       F::EmbeddingBagFuncOptions().mode(engine::kSum))));
  CHECK(engine::sim::fallback_counts() ==
        std::map<std::string, std::int64_t>{{"aten::_embedding_bag_forward_only", 2}});
}

TEST_CASE("the backward pass falls back too, and the gradient lands on mps") {
  start_with_fallback("1");
  test_support::CaptureStderr err;
  engine::nn::EmbeddingBag bag(5, 4);
  bag->to(Device("mps"));
  bag(token_ids(Device("mps"))).sum().backward();
  CHECK(bag->weight.grad().device() == Device("mps:0"));
  CHECK(engine::sim::fallback_counts() ==
        std::map<std::string, std::int64_t>{{"aten::_embedding_bag", 1},
                                            {"aten::_embedding_bag_dense_backward", 1}});
  // Row 3 appears twice in the second bag of three: its gradient is 2/3 in every column.
  const Tensor grad = bag->weight.grad().cpu();
  CHECK(grad.data_ptr<float>()[3 * 4] == doctest::Approx(2.0 / 3.0));
  CHECK(err.text().find("UserWarning") == 0);
  CHECK(err.text().find("UserWarning", 1) == std::string::npos);  // once per process
}

TEST_CASE("embedding_bag averages the rows that embedding picks") {
  engine::sim::use_machine("linux-x86_64");
  engine::manual_seed(1);
  const Tensor weight = engine::randn({5, 4});
  const Tensor ids = token_ids(Device("cpu"));
  const Tensor bagged = F::embedding_bag(ids, weight);
  const Tensor looked_up = F::embedding(ids, weight).mean({1});
  for (std::int64_t i = 0; i < 2 * 4; ++i)
    CHECK(bagged.data_ptr<float>()[i] == doctest::Approx(looked_up.data_ptr<float>()[i]));
  CHECK(engine::sim::fallback_counts().empty());  // nothing was on mps
}

TEST_CASE("a fallback waits for the GPU and counts as a change of backend") {
  start_with_fallback("1");
  test_support::CaptureStderr err;
  const Tensor ids_cpu = token_ids(Device("cpu"));  // cpu: the tokenizer's output
  const Tensor ids = ids_cpu.to(Device("mps"));     // mps
  const Tensor weight = engine::randn({5, 4}, Device("mps"));
  {
    engine::sim::ShapeOnlyGuard shape_only;
    const Tensor big = engine::randn({2048, 2048}, Device("mps"));
    big.matmul(big);  // queued GPU work the fallback must wait for
  }
  const double before = engine::py::time::perf_counter();
  const Tensor bags = F::embedding_bag(ids, weight);  // cpu fallback
  CHECK(engine::py::time::perf_counter() - before > 1e-3);
  const Tensor logits = bags * 2.0;  // mps again
  logits.sum().item<float>();        // the host reads the result
  CHECK(engine::sim::backend_path() ==
        std::vector<std::string>{"cpu", "mps", "cpu fallback", "mps", "cpu"});
}
