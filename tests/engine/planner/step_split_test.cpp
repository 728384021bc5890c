// Where a planned step's time goes (planner/step_split.h): the parts add up to the step the table
// prints, each span's category lands in its part, and the bound is the largest part.

#include "planner/step_split.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

#include "planner/model_config.h"
#include "planner/prediction.h"
#include "planner/recommendation.h"
#include "readme_prose.h"

namespace {

const std::string kExamples = TUTOR_SOURCE_DIR "/engine/planner/examples/";

planner::Prediction predicted(const std::string& example, const char* machine,
                              std::int64_t batch_size = 0) {
  planner::ModelConfig config = planner::read_model_config(kExamples + example);
  if (batch_size > 0) config.batch_size = batch_size;
  return planner::predict(config, *engine::find_machine(machine));
}

void check_adds_up(const planner::StepSplit& s) {
  CHECK(s.seconds > 0);
  // the host's own work is what the recorded parts leave of the step: they fit within it
  CHECK(s.host() > 0);
  CHECK(s.input + s.wait_for_gpu + s.compute < s.seconds);
  CHECK(s.gpu_idle() >= 0);
  CHECK(s.gpu_idle() <= 1);
}

}  // namespace

TEST_CASE("each span's category lands in its part of the step, and the largest part bounds it") {
  engine::sim::TimelineTotals totals;
  totals.add("host", "data", "DataLoader: receive batch", 0.004);
  totals.add("host", "wait", "wait: DataLoader", 0.010);
  totals.add("host", "startup", "worker 0", 0.002);
  totals.add("host", "wait", "wait: copy to mps", 0.006);
  totals.add("host", "wait", "wait: item", 0.002);
  totals.add("host", "dispatch", "aten::mm", 0.003);
  totals.add("mps device", "kernel", "aten::mm", 0.012);
  totals.add("mps device", "copy", "copy cpu -> mps", 0.002);
  totals.add("worker 0", "data", "a batch", 0.050);  // the workers' own tracks are not the step's
  const planner::StepSplit split = planner::split_step(totals, 2, 0.020, /*on_gpu=*/true);
  CHECK(split.input == doctest::Approx(0.008));
  CHECK(split.wait_for_gpu == doctest::Approx(0.004));
  CHECK(split.gpu == doctest::Approx(0.007));
  CHECK(split.compute == 0);
  CHECK(split.host() == doctest::Approx(0.008));
  CHECK(split.gpu_idle() == doctest::Approx(0.65));
  CHECK(split.bound() == planner::StepBound::Input);  // a tie with the host goes to the input
  CHECK(split.bound_name() == "input-bound");

  engine::sim::TimelineTotals on_cpu;
  on_cpu.add("host", "cpu", "aten::addmm", 0.030);
  on_cpu.add("host", "framework", "backward()", 0.002);
  const planner::StepSplit cpu = planner::split_step(on_cpu, 1, 0.032, /*on_gpu=*/false);
  CHECK(cpu.compute == doctest::Approx(0.030));
  CHECK(cpu.host() == doctest::Approx(0.002));
  CHECK(cpu.bound_name() == "compute-bound");
}

TEST_CASE("a planned step's parts add up to the time the table prints, on both devices") {
  for (const char* example : {"mnist_mlp.toml", "resnet50_food101.toml", "laptop_char.toml",
                              "distilbert_last_block.toml", "resnet18_food101_jpeg.toml"}) {
    CAPTURE(example);
    const planner::Prediction p = predicted(example, "m3-max-64gb");
    REQUIRE(p.mps_split);
    REQUIRE(p.cpu_split);
    check_adds_up(*p.mps_split);
    check_adds_up(*p.cpu_split);
    CHECK(p.mps_split->on_gpu);
    CHECK(p.mps_split->compute == 0);  // the host's cpu operators are its own work on mps
    CHECK(p.cpu_split->gpu == 0);
    CHECK(p.cpu_split->bound_name() == "compute-bound");
  }
  const planner::Prediction no_mps = predicted("mnist_mlp.toml", "linux-x86_64");
  CHECK_FALSE(no_mps.mps_split);
  REQUIRE(no_mps.cpu_split);
  check_adds_up(*no_mps.cpu_split);
}

TEST_CASE("a big step keeps the GPU busy; a small one leaves it waiting for the host") {
  const planner::Prediction resnet = predicted("resnet50_food101.toml", "m3-max-64gb");
  CHECK(resnet.mps_split->bound_name() == "GPU-bound");
  CHECK(resnet.mps_split->gpu_idle() < 0.05);
  // The MNIST MLP's kernels are so small that the 64-core GPU finishes each before the host has
  // dispatched the next.
  const planner::Prediction mlp = predicted("mnist_mlp.toml", "m1-ultra-64gb");
  CHECK(mlp.mps_split->bound_name() == "host-bound");
  CHECK(mlp.mps_split->gpu_idle() > 0.5);
  const planner::Prediction fewer = predicted("mnist_mlp.toml", "m1-ultra-64gb", 16);
  CHECK(fewer.mps_split->gpu_idle() > mlp.mps_split->gpu_idle());
}

TEST_CASE("a verdict against mps names a host-bound step and what shifts its bound") {
  const planner::Prediction host_bound = predicted("mnist_mlp.toml", "m1-ultra-64gb");
  const planner::Recommendation r = planner::recommend(host_bound, "batch_size");
  CHECK(r.lane == "cpu");
  REQUIRE(r.reasons.size() == 2);
  CHECK(r.reasons[1].starts_with("the mps step is host-bound: its GPU idles 60 % of the step"));
  // GPU-bound: the same verdict, with no word of the host
  const planner::Prediction gpu_bound = predicted("mnist_mlp.toml", "m3-max-64gb");
  CHECK(gpu_bound.mps_split->bound() == planner::StepBound::Device);
  CHECK(planner::recommend(gpu_bound, "batch_size").reasons.size() == 1);
}

TEST_CASE(
    "a loop that reads its loss every step waits for the GPU in each; logging less often "
    "shortens a small mps step, and the plan says how often it reads it") {
  planner::ModelConfig config = planner::read_model_config(kExamples + "mnist_mlp_dataloader.toml");
  CHECK(config.log_interval == 1);  // the default: loss.item() every step
  const engine::MachineProfile& m1 = *engine::find_machine("m1-8gb");
  const planner::Prediction every_step = planner::predict(config, m1);
  config.log_interval = 100;
  const planner::Prediction rarely = planner::predict(config, m1);
  REQUIRE(every_step.mps_split);
  REQUIRE(rarely.mps_split);
  check_adds_up(*every_step.mps_split);
  check_adds_up(*rarely.mps_split);
  CHECK(rarely.mps_seconds() < every_step.mps_seconds());
  CHECK(rarely.mps_split->wait_for_gpu < every_step.mps_split->wait_for_gpu);
  // the cpu has no GPU to wait for: its step hardly changes
  CHECK(*rarely.cpu_seconds() == doctest::Approx(*every_step.cpu_seconds()).epsilon(0.02));
  // as the planner's README says
  const std::string text = planner_tests::planner_readme_prose();
  const std::string claim = fmt::format(
      "steps in {:.2f} ms reading it every step and in {:.2f} ms reading it every 100 "
      "steps",
      1e3 * *every_step.mps_seconds(), 1e3 * *rarely.mps_seconds());
  CHECK_MESSAGE(text.find(claim) != std::string::npos, "the README should say: " << claim);

  // nanoGPT's train.py reads log_interval (its config for Shakespeare: every 10 iterations)
  const planner::ModelConfig nanogpt =
      planner::read_model_config(kExamples + "train_shakespeare_char.py");
  CHECK(nanogpt.log_interval == 10);
  const auto refusal = [](const std::string& text) {
    try {
      static_cast<void>(planner::parse_toml_config(text, "bad.toml"));
    } catch (const planner::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal("family = \"mlp\"\nwidths = [784, 10]\nlog_interval = 0\n") ==
        "bad.toml:3: log_interval: expected an integer from 1 to 1000000, got 0");
}

TEST_CASE("the numbers the planner's README states about splits and workers are the plan's") {
  const std::string readme = planner_tests::planner_readme_prose();
  const auto says = [&](const std::string& claim) {
    CHECK_MESSAGE(readme.find(claim) != std::string::npos, "the README should say: " << claim);
  };
  const planner::Prediction mlp = predicted("mnist_mlp.toml", "m3-max-64gb");
  REQUIRE(mlp.mps_split);
  CHECK(mlp.mps_split->bound() == planner::StepBound::Device);
  says(fmt::format("(the MNIST MLP's, {:.0f} % on the M3 Max)", 100 * mlp.mps_split->gpu_idle()));

  const engine::MachineProfile& m3 = *engine::find_machine("m3-max-64gb");
  planner::ModelConfig jpeg = planner::read_model_config(kExamples + "resnet18_food101_jpeg.toml");
  const planner::Prediction plain = planner::predict(jpeg, m3);
  const auto fix = planner::workers_hiding_input(planner::input_bound_sweep(jpeg, plain));
  REQUIRE(fix);
  CHECK(fix->num_workers == 1);
  says(fmt::format("on the M3 Max, whose one worker would hold {:.2f} GiB",
                   static_cast<double>(fix->mps.worker_bytes) / (1LL << 30)));
  jpeg.input.num_workers = 2;
  const planner::Prediction two = planner::predict(jpeg, m3);
  says(
      fmt::format("`{:.2f} + workers {:.2f} of {:.1f} GiB free` for "
                  "`examples/resnet18_food101_jpeg.toml` with two workers",
                  static_cast<double>(two.mps_bytes) / (1LL << 30),
                  static_cast<double>(two.worker_bytes) / (1LL << 30),
                  static_cast<double>(planner::free_memory(m3)) / (1LL << 30)));
}
