// The memory recipes, fields every family shares (model_config.h). Gradient accumulation: a step
// of k micro-batches, each with its loss divided by k, then one optimizer step; a step of many
// micro-steps is priced from steps of two and three (prediction.cpp), so a plan's time does not
// grow with k. Gradient checkpointing: each block recomputed by the backward pass.

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "planner/model_config.h"
#include "planner/prediction.h"
#include "planner/recommendation.h"
#include "readme_prose.h"

namespace {

const std::string kRecipeExamples = TUTOR_SOURCE_DIR "/engine/planner/examples/";

planner::Prediction accumulating(const std::string& example, std::int64_t micro_steps,
                                 const char* machine) {
  planner::ModelConfig config = planner::read_model_config(kRecipeExamples + example);
  config.gradient_accumulation_steps = micro_steps;
  return planner::predict(config, *engine::find_machine(machine));
}

}  // namespace

TEST_CASE("past the first, every micro-step costs the same, so a long step is priced from short") {
  for (const char* example : {"mnist_mlp.toml", "train_shakespeare_char.py"}) {
    CAPTURE(example);
    // four and five micro-steps are timed whole; six and forty from steps of two and three
    const planner::Prediction four = accumulating(example, 4, "m1-8gb");
    const planner::Prediction five = accumulating(example, 5, "m1-8gb");
    const planner::Prediction six = accumulating(example, 6, "m1-8gb");
    const planner::Prediction forty = accumulating(example, 40, "m1-8gb");
    for (auto seconds : {&planner::Prediction::mps_seconds, &planner::Prediction::cpu_seconds}) {
      const double micro_step = *(five.*seconds)() - *(four.*seconds)();
      CHECK(micro_step > 0);
      CHECK(*(six.*seconds)() == doctest::Approx(*(five.*seconds)() + micro_step).epsilon(0.01));
      CHECK(*(forty.*seconds)() ==
            doctest::Approx(*(five.*seconds)() + 35 * micro_step).epsilon(0.01));
    }
    // the gradients and the allocator's blocks are all there after the first micro-step
    CHECK(six.mps_bytes == five.mps_bytes);
    CHECK(forty.mps_bytes == five.mps_bytes);
  }
}

TEST_CASE("accumulating micro-batches holds one micro-batch's memory and takes longer") {
  const auto& m3_max = *engine::find_machine("m3-max-64gb");
  const planner::ModelConfig whole =
      planner::read_model_config(kRecipeExamples + "resnet50_food101.toml");
  const planner::ModelConfig quarters =
      planner::read_model_config(kRecipeExamples + "resnet50_food101_accumulate.toml");
  REQUIRE(quarters.batch_size * quarters.gradient_accumulation_steps == whole.batch_size);
  const planner::Prediction one = planner::predict(whole, m3_max);
  const planner::Prediction four = planner::predict(quarters, m3_max);
  CHECK(four.mps_bytes < one.mps_bytes);
  // four smaller batches fill the GPU less well and dispatch four times the kernels
  CHECK(*four.mps_seconds() > *one.mps_seconds());
  // and a plan of one micro-batch of 8 takes about a quarter of the four
  planner::ModelConfig single = quarters;
  single.gradient_accumulation_steps = 1;
  const planner::Prediction eighth = planner::predict(single, m3_max);
  CHECK(*four.mps_seconds() > 3 * *eighth.mps_seconds());
  CHECK(*four.mps_seconds() < 4.5 * *eighth.mps_seconds());
  // the planner's README says what the example shows
  const double gib = 1 << 30;
  const std::string claim = fmt::format(
      "on the M3 Max the Metal memory falls from {:.2f} to {:.2f} GiB and the step grows from "
      "{:.0f} to {:.0f} ms",
      static_cast<double>(one.mps_bytes) / gib, static_cast<double>(four.mps_bytes) / gib,
      *one.mps_seconds() * 1e3, *four.mps_seconds() * 1e3);
  CHECK_MESSAGE(planner_tests::planner_readme_prose().find(claim) != std::string::npos, claim);
}

TEST_CASE("gradient_accumulation_steps is every family's field, 1 by default, nanoGPT's 40") {
  const auto read = [](const std::string& text) {
    return planner::parse_toml_config(text, "accumulate.toml");
  };
  const planner::ModelConfig mlp = read("family = \"mlp\"\nwidths = [784, 10]\n");
  CHECK(mlp.gradient_accumulation_steps == 1);
  const auto defaults = planner::defaulted_fields(mlp);
  CHECK(std::find(defaults.begin(), defaults.end(), "gradient_accumulation_steps 1") !=
        defaults.end());
  CHECK(
      read("model = \"resnet18\"\ngradient_accumulation_steps = 8\n").gradient_accumulation_steps ==
      8);
  CHECK(read("model_type = \"bert\"\ngradient_accumulation_steps = 2\n")
            .gradient_accumulation_steps == 2);
  const planner::ModelConfig nanogpt = read("n_layer = 2\n");
  CHECK(nanogpt.gradient_accumulation_steps == 40);  // train.py's 5 * 8
  const auto gpt_defaults = planner::defaulted_fields(nanogpt);
  CHECK(std::find(gpt_defaults.begin(), gpt_defaults.end(), "gradient_accumulation_steps 40") !=
        gpt_defaults.end());
}

TEST_CASE("checkpointing each block holds less memory and recomputes, so the step takes longer") {
  const auto& m3_max = *engine::find_machine("m3-max-64gb");
  const planner::Prediction plain = planner::predict(
      planner::read_model_config(kRecipeExamples + "resnet50_food101.toml"), m3_max);
  const planner::ModelConfig config =
      planner::read_model_config(kRecipeExamples + "resnet50_food101_checkpointed.toml");
  REQUIRE(config.gradient_checkpointing);
  const planner::Prediction checkpointed = planner::predict(config, m3_max);
  CHECK(checkpointed.mps_bytes < plain.mps_bytes);
  // each stage's forward pass runs again: at most a second forward pass, about a third of a step
  CHECK(*checkpointed.mps_seconds() > *plain.mps_seconds());
  CHECK(*checkpointed.mps_seconds() < 1.5 * *plain.mps_seconds());
  CHECK(*checkpointed.cpu_seconds() > *plain.cpu_seconds());
  const double gib = 1 << 30;
  const std::string claim = fmt::format(
      "with its four stages checkpointed: it holds {:.2f} GiB and steps in {:.0f} ms",
      static_cast<double>(checkpointed.mps_bytes) / gib, *checkpointed.mps_seconds() * 1e3);
  CHECK_MESSAGE(planner_tests::planner_readme_prose().find(claim) != std::string::npos, claim);
}

TEST_CASE("a frozen block is not recomputed: nothing in it needs the activations a backward uses") {
  // DistilBERT with its last layer trained: checkpointing recomputes that layer alone, not the
  // five frozen below it, whose forward passes record nothing to begin with
  const auto& m1 = *engine::find_machine("m1-pro-16gb");
  planner::ModelConfig config =
      planner::read_model_config(kRecipeExamples + "distilbert_last_block.toml");
  REQUIRE(config.trainable_layers == 1);
  const planner::Prediction plain = planner::predict(config, m1);
  config.gradient_checkpointing = true;
  const planner::Prediction checkpointed = planner::predict(config, m1);
  CHECK(*checkpointed.mps_seconds() > *plain.mps_seconds());
  CHECK(*checkpointed.mps_seconds() < 1.25 * *plain.mps_seconds());
}

TEST_CASE("a checkpointed block is recomputed under the autocast of its forward pass") {
  // backward runs outside `with torch.autocast()`: without the forward pass's state, the cpu's
  // recomputed convolutions would take float16 activations and float32 weights and raise
  planner::ModelConfig config =
      planner::read_model_config(kRecipeExamples + "resnet50_food101_float16.toml");
  config.gradient_checkpointing = true;
  const planner::Prediction p = planner::predict(config, *engine::find_machine("m3-max-64gb"));
  CHECK(p.cpu == planner::CpuRun::Runs);
  CHECK(p.cpu_why.empty());
  CHECK(p.cpu_seconds().has_value());
  CHECK(p.mps_seconds().has_value());
}

TEST_CASE("gradient_checkpointing is every family's field, off by default") {
  const auto read = [](const std::string& text) {
    return planner::parse_toml_config(text, "checkpointed.toml");
  };
  const planner::ModelConfig mlp = read("family = \"mlp\"\nwidths = [784, 10]\n");
  CHECK_FALSE(mlp.gradient_checkpointing);
  const auto defaults = planner::defaulted_fields(mlp);
  CHECK(std::find(defaults.begin(), defaults.end(), "gradient_checkpointing false") !=
        defaults.end());
  for (const char* family : {"model = \"resnet18\"\n", "model_type = \"bert\"\n", "n_layer = 2\n",
                             "family = \"mlp\"\nwidths = [784, 10]\n"}) {
    CAPTURE(family);
    CHECK(read(std::string(family) + "gradient_checkpointing = true\n").gradient_checkpointing);
  }
  CHECK(planner::parse_python_config("n_layer = 2\ngradient_checkpointing = True\n", "c.py")
            .gradient_checkpointing);
}

TEST_CASE("a step too large for the Mac's memory is fitted with a recipe before another Mac") {
  const auto& m1 = *engine::find_machine("m1-8gb");
  planner::ModelConfig config =
      planner::read_model_config(kRecipeExamples + "train_shakespeare_char.toml");
  const planner::Prediction as_written = planner::predict(config, m1);
  REQUIRE(as_written.memory == planner::MpsMemory::Swaps);
  const auto fix = planner::memory_fix(config, as_written);
  REQUIRE(fix.has_value());
  // the same samples a step, in micro-batches that fit
  CHECK(fix->batch_size * fix->gradient_accumulation_steps ==
        config.batch_size * config.gradient_accumulation_steps);
  CHECK(fix->batch_size < config.batch_size);
  CHECK_FALSE(fix->gradient_checkpointing);
  CHECK(fix->mps.memory == planner::MpsMemory::Fits);
  CHECK(fix->mps.mps_bytes < as_written.mps_bytes);
  const planner::Recommendation r =
      planner::recommend(as_written, planner::memory_knobs(config), nullptr, &*fix);
  CHECK(r.lane == "mps");
  CHECK(r.reasons.front().starts_with(fix->recipe() + " fits the step in "));
  CHECK(r.reasons.at(1).starts_with("as written, the step holds "));
  // without the fix, the verdict as before: another Mac
  CHECK(planner::recommend(as_written, planner::memory_knobs(config)).lane == "remote");

  // a batch that cannot be halved into equal micro-batches is fitted by checkpointing
  config.batch_size = 63;
  const planner::Prediction odd = planner::predict(config, m1);
  REQUIRE(odd.memory == planner::MpsMemory::Swaps);
  const auto checkpointing = planner::memory_fix(config, odd);
  REQUIRE(checkpointing.has_value());
  CHECK(checkpointing->gradient_checkpointing);
  CHECK(checkpointing->batch_size == 63);
  CHECK(checkpointing->recipe() == "gradient_checkpointing = true");
}

TEST_CASE("no recipe is offered where the step fits, or where the model's state alone cannot") {
  const planner::ModelConfig small =
      planner::read_model_config(kRecipeExamples + "train_shakespeare_char.toml");
  const auto& m3_max = *engine::find_machine("m3-max-64gb");
  CHECK_FALSE(planner::memory_fix(small, planner::predict(small, m3_max)).has_value());
  const planner::ModelConfig huge =
      planner::read_model_config(TUTOR_SOURCE_DIR "/tests/engine/planner/verdicts/gpt3_175b.toml");
  const auto& m4_max = *engine::find_machine("m4-max-128gb");
  CHECK_FALSE(planner::memory_fix(huge, planner::predict(huge, m4_max)).has_value());
}
