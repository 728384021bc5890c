// A CNN's input pipeline in a plan (model_config.h's InputSettings): the DataLoader's time lands
// in the step's input, its workers hide it at a cost in unified memory that the memory check
// counts, and every field left out is named as a default.

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "planner/model_config.h"
#include "planner/prediction.h"
#include "planner/recommendation.h"

// Named, not anonymous: the tests are compiled as unity files.
namespace input_pipeline_test {

const std::string kJpeg = TUTOR_SOURCE_DIR "/engine/planner/examples/resnet18_food101_jpeg.toml";
const std::string kInMemory = TUTOR_SOURCE_DIR "/engine/planner/examples/resnet50_food101.toml";

const engine::MachineProfile& mac(const char* name) { return *engine::find_machine(name); }

bool lists(const std::vector<std::string>& fields, const std::string& field) {
  return std::find(fields.begin(), fields.end(), field) != fields.end();
}

// Whether a default is listed for `name`, whatever its value.
bool defaults(const std::vector<std::string>& fields, const std::string& name) {
  return std::any_of(fields.begin(), fields.end(),
                     [&](const std::string& f) { return f.starts_with(name + " "); });
}

}  // namespace input_pipeline_test

using input_pipeline_test::defaults;
using input_pipeline_test::kInMemory;
using input_pipeline_test::kJpeg;
using input_pipeline_test::lists;
using input_pipeline_test::mac;

TEST_CASE("a config without an input pipeline says so among its defaults; one with it, its own") {
  const planner::ModelConfig in_memory = planner::read_model_config(kInMemory);
  CHECK_FALSE(in_memory.input.reads_samples());
  CHECK(lists(planner::defaulted_fields(in_memory),
              "samples \"tensors\" (batches made in memory, no input pipeline)"));
  CHECK_FALSE(defaults(planner::defaulted_fields(in_memory), "num_workers"));

  const planner::ModelConfig jpeg = planner::read_model_config(kJpeg);
  CHECK(jpeg.input.samples == "jpeg");
  CHECK(jpeg.input.stored_size == 512);
  const std::vector<std::string> listed = planner::defaulted_fields(jpeg);
  CHECK(lists(listed, "num_workers 0 (the DataLoader's)"));
  CHECK(lists(listed, "augment true"));
  CHECK_FALSE(defaults(listed, "stored_size"));  // the file sets these
  CHECK_FALSE(defaults(listed, "samples"));
  CHECK_FALSE(defaults(listed, "num_samples"));
}

TEST_CASE(
    "decoding JPEGs in the training process bounds the step; workers hide it and hold memory") {
  const planner::ModelConfig config = planner::read_model_config(kJpeg);
  const engine::MachineProfile& m3_max = mac("m3-max-64gb");  // a GPU fast enough to wait
  const planner::Prediction alone = planner::predict(config, m3_max);
  REQUIRE(alone.mps_split);
  CHECK(alone.mps_split->bound() == planner::StepBound::Input);
  CHECK(alone.mps_split->input > 0.5 * alone.mps_split->seconds);
  CHECK(alone.mps_split->gpu_idle() > 0.1);
  CHECK(alone.worker_bytes == 0);

  // the same model with its batches made in memory: the GPU's work alone, shorter (the input's
  // time overlaps the GPU's work queued before it, so the step grows by less than the input)
  planner::ModelConfig in_memory = config;
  in_memory.input = {};
  const planner::Prediction bare = planner::predict(in_memory, m3_max);
  REQUIRE(bare.mps_seconds());
  CHECK(*alone.mps_seconds() > 1.1 * *bare.mps_seconds());
  CHECK(bare.mps_split->input == 0);

  const std::vector<planner::WorkersStep> sweep = planner::sweep_workers(config, m3_max);
  REQUIRE(sweep.size() >= 2);
  CHECK(sweep.front().num_workers == 0);
  for (std::size_t i = 1; i < sweep.size(); ++i) {
    CAPTURE(sweep[i].num_workers);
    CHECK(sweep[i].num_workers > sweep[i - 1].num_workers);
    CHECK(sweep[i].num_workers <= static_cast<std::int64_t>(m3_max.performance_cores()));
    // each worker a process of its own: memory grows with them, the wait shrinks
    CHECK(sweep[i].mps.worker_bytes > sweep[i - 1].mps.worker_bytes);
    if (sweep[i].mps.mps_split && sweep[i - 1].mps.mps_split)
      CHECK(sweep[i].mps.mps_split->input <= sweep[i - 1].mps.mps_split->input + 1e-9);
  }
  const auto fix = planner::workers_hiding_input(sweep);
  REQUIRE(fix);
  CHECK(fix->num_workers > 0);
  CHECK(fix->mps.mps_split->bound() != planner::StepBound::Input);
  CHECK(*fix->mps.mps_seconds() < 0.9 * *alone.mps_seconds());
  CHECK(fix->mps.worker_bytes >= fix->num_workers * (400LL << 20));  // 0.4 GiB each, at least
  CHECK(planner::input_bound_sweep(config, alone).size() == sweep.size());
  CHECK(planner::input_bound_sweep(in_memory, bare).empty());
}

TEST_CASE("a plan draws the same shuffle and flips in every run: its numbers are the same") {
  const planner::ModelConfig config = planner::read_model_config(kJpeg);
  const planner::Prediction first = planner::predict(config, mac("m3-max-64gb"));
  const planner::Prediction again = planner::predict(config, mac("m3-max-64gb"));
  REQUIRE(first.mps_split);
  CHECK(first.mps_split->input > 0);
  CHECK(first.mps_split->input == again.mps_split->input);
  CHECK(*first.mps_seconds() == *again.mps_seconds());
  CHECK(*first.cpu_seconds() == *again.cpu_seconds());
}

TEST_CASE("the workers' memory counts against the Mac's: more than it has free swaps") {
  planner::ModelConfig config = planner::read_model_config(kJpeg);
  const engine::MachineProfile& m1 = mac("m1-8gb");
  const planner::Prediction few = planner::predict(config, m1);
  CHECK(few.memory == planner::MpsMemory::Fits);
  config.input.num_workers = 16;
  const planner::Prediction many = planner::predict(config, m1);
  CHECK(many.worker_bytes > 6LL << 30);
  CHECK(many.mps_bytes + many.worker_bytes > planner::free_memory(m1));
  CHECK(many.memory == planner::MpsMemory::Swaps);
  // and on the cpu, where the model's state and the workers together are more than it has free
  CHECK(few.cpu == planner::CpuRun::Runs);
  CHECK(many.state_bytes + many.worker_bytes > planner::free_memory(m1));
  CHECK(many.cpu == planner::CpuRun::Swaps);
  CHECK_FALSE(many.cpu_seconds());
  // the verdict blames the workers, not the Mac: the step fits without them
  const planner::Recommendation verdict = planner::recommend(many, "batch_size");
  CHECK(verdict.lane == "mps");
  REQUIRE_FALSE(verdict.reasons.empty());
  CHECK(verdict.reasons.front().find("fewer workers fit") != std::string::npos);
  CHECK(planner::recommend(few, "batch_size").reasons.front().find("workers") == std::string::npos);
}

TEST_CASE("a dataset too small for one batch is an error the plan names, not a hang") {
  planner::ModelConfig config = planner::read_model_config(kJpeg);
  config.input.num_samples = 16;
  const planner::Prediction p = planner::predict(config, mac("m1-8gb"));
  CHECK(p.memory == planner::MpsMemory::Raises);
  CHECK(p.why.find("num_samples is smaller than batch_size") != std::string::npos);
}

TEST_CASE("an MLP reads MNIST's images through a DataLoader, flattened on the device") {
  const planner::ModelConfig config = planner::read_model_config(
      TUTOR_SOURCE_DIR "/engine/planner/examples/mnist_mlp_dataloader.toml");
  CHECK(config.input.samples == "images");
  const planner::Prediction p = planner::predict(config, mac("m1-8gb"));
  REQUIRE(p.mps_split);
  REQUIRE(p.cpu_split);
  CHECK(p.mps_split->input > 0);
  CHECK(p.cpu_split->input > 0);
  // 64 images converted a step, one channel each: less than the same of three channels costs
  planner::ModelConfig rgb = planner::read_model_config(kJpeg);
  rgb.input.samples = "images";
  rgb.batch_size = 64;
  rgb.as<planner::CnnSettings>().image_size = 28 * 2;  // a CNN's images are at least 32 a side
  const planner::Prediction cnn = planner::predict(rgb, mac("m1-8gb"));
  REQUIRE(cnn.cpu_split);
  CHECK(p.cpu_split->input < cnn.cpu_split->input);
}

TEST_CASE("the verdict weighs the workers that hide an input-bound step, on both devices") {
  const planner::ModelConfig config = planner::read_model_config(
      TUTOR_SOURCE_DIR "/engine/planner/examples/mnist_mlp_dataloader.toml");
  const planner::Prediction p = planner::predict(config, mac("m1-8gb"));
  REQUIRE(p.mps_split);
  REQUIRE(p.mps_split->bound() == planner::StepBound::Input);
  auto fix = planner::workers_hiding_input(planner::input_bound_sweep(config, p));
  REQUIRE(fix);
  CHECK_FALSE(fix->mps.cpu_seconds());  // the sweep runs mps alone
  planner::measure_cpu(config, *fix);
  REQUIRE(fix->mps.cpu_seconds());
  CHECK(*fix->mps.cpu_seconds() < *p.cpu_seconds());  // the cpu's step loads its input too
  const planner::Recommendation r = planner::recommend(p, "batch_size", &*fix);
  CHECK(r.lane == "cpu");  // the workers shorten both steps, and mps is still too slow
  REQUIRE(r.reasons.size() == 2);
  CHECK(r.reasons[1].starts_with("with num_workers = 1 on both devices, mps is still only"));

  // where they shorten the mps step more than the cpu's, past the runbook's 1.22x: mps
  planner::WorkersStep faster = *fix;
  faster.mps.cpu_split->seconds = 1.3 * *faster.mps.mps_seconds();
  const planner::Recommendation with = planner::recommend(p, "batch_size", &faster);
  CHECK(with.lane == "mps");
  CHECK(with.reasons.front() ==
        "with num_workers = 1 on both devices, mps is 1.30x the cpu; without workers its step "
        "waits for its batches and is only " +
            fmt::format("{:.2f}x", *p.cpu_seconds() / *p.mps_seconds()) + " the cpu");
  // and without a fix, the verdict is the plain one
  CHECK(planner::recommend(p, "batch_size").reasons.size() == 1);
}
