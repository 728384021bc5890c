// A plan in mixed precision: `autocast` in every family's config, train.py's `dtype` read and
// said to change nothing on a Mac, and the step priced as autocast runs it: half-precision
// activations and products, float32 batch norm on mps, float16's GradScaler, bfloat16 emulated
// on the M1 (engine/planner/README.md, "Precision: `autocast`").

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "planner/model_config.h"
#include "planner/plan.h"
#include "planner/prediction.h"
#include "refusal.h"
#include "scratch_directory.h"

using planner::ModelConfig;
using planner_tests::refusal;

// Named, not anonymous: the planner's tests are compiled as one unity file.
namespace precision_plans {

const std::string kExampleDir = TUTOR_SOURCE_DIR "/engine/planner/examples/";
const std::string kCharacters =
    "dataset = \"shakespeare_char\"\ngradient_accumulation_steps = 1\nbatch_size = 64\n"
    "block_size = 256\nn_layer = 6\nn_head = 6\nn_embd = 384\ndropout = 0.2\ncompile = false\n";
const std::string kResnet = "model = \"resnet50\"\nnum_classes = 101\noptimizer = \"adam\"\n";

ModelConfig toml_config(const std::string& text) {
  return planner::parse_toml_config(text, "t.toml");
}

planner::Prediction predicted(const std::string& toml, const char* machine) {
  return planner::predict(toml_config(toml), *engine::find_machine(machine));
}

double mps_ms(const std::string& toml, const char* machine) {
  return *predicted(toml, machine).mps_seconds() * 1e3;
}

// What `course plan FILE --machine m3-max-64gb [--json]` prints, on one line per paragraph.
std::string plan_of(const std::string& file, bool json = false) {
  std::vector<std::string> args{file, "--machine", "m3-max-64gb"};
  if (json) args.emplace_back("--json");
  std::ostringstream out, err;
  REQUIRE(planner::plan_command(args, out, err, 1000) == 0);
  return out.str();
}

// `toml` as a config file of the test's own.
std::string config_file(const std::string& toml) {
  const std::filesystem::path file = scratch_directory("planner_precision") / "config.toml";
  std::ofstream(file) << toml;
  return file.string();
}

}  // namespace precision_plans

using namespace precision_plans;

TEST_CASE("every family takes autocast: off, float16 or bfloat16, and refuses anything else") {
  CHECK(toml_config(kResnet).autocast == "off");
  CHECK(toml_config(kResnet + "autocast = \"float16\"\n").autocast == "float16");
  CHECK(toml_config("family = \"mlp\"\nwidths = [784, 10]\nautocast = \"bfloat16\"\n").autocast ==
        "bfloat16");
  CHECK(toml_config("model_type = \"bert\"\nautocast = \"float16\"\n").autocast == "float16");
  CHECK(toml_config(kCharacters + "autocast = \"bfloat16\"\n").autocast == "bfloat16");
  CHECK(refusal(kResnet + "autocast = \"float32\"\n") ==
        "bad.toml:4: autocast: expected \"off\", \"float16\" or \"bfloat16\" (torch.autocast's "
        "dtype, or off), got \"float32\"");
}

TEST_CASE("train.py's dtype changes nothing on a Mac, and the plan says why") {
  CHECK(mps_ms(kCharacters + "dtype = \"bfloat16\"\n", "m3-max-64gb") ==
        mps_ms(kCharacters, "m3-max-64gb"));
  CHECK(plan_of(config_file(kCharacters + "dtype = \"bfloat16\"\n"))
            .find("dtype 'bfloat16' is the dtype of train.py's autocast, which it enters on CUDA "
                  "only (device_type is 'cpu' for mps, and ctx a nullcontext()): on a Mac the step "
                  "runs in float32, as planned here; autocast = \"bfloat16\" plans a train.py "
                  "changed to autocast on mps") != std::string::npos);
  CHECK(plan_of(config_file(kCharacters)).find("dtype") == std::string::npos);
  CHECK(refusal(kCharacters + "dtype = \"half\"\n").find("dtype: expected \"float32\"") !=
        std::string::npos);
}

TEST_CASE("a bfloat16 nanoGPT holds less than a float32 one, and the M1 emulates bfloat16") {
  const std::string bf16 = kCharacters + "autocast = \"bfloat16\"\n";
  const std::string fp16 = kCharacters + "autocast = \"float16\"\n";
  CHECK(predicted(bf16, "m3-max-64gb").mps_bytes < predicted(kCharacters, "m3-max-64gb").mps_bytes);
  CHECK(mps_ms(bf16, "m3-max-64gb") < mps_ms(kCharacters, "m3-max-64gb"));
  // at 0.55 of float32's rate on the M1 (Note [Precision on Apple GPUs]): slower than float16
  CHECK(mps_ms(bf16, "m1-pro-16gb") > 1.2 * mps_ms(fp16, "m1-pro-16gb"));
  const std::string plan = plan_of(kExampleDir + "train_shakespeare_char_bfloat16.toml");
  CHECK(plan.find("its forward pass under torch.autocast(dtype=torch.bfloat16), the loss read with "
                  "item() every 10 steps, in milliseconds") != std::string::npos);
  CHECK(plan.find("; planned with autocast = \"bfloat16\", as a train.py changed to autocast on "
                  "mps runs") != std::string::npos);
}

TEST_CASE("a float16 ResNet casts around every batch norm on mps: slower and larger than float32") {
  const std::string fp16 = kResnet + "autocast = \"float16\"\n";
  CHECK(mps_ms(fp16, "m3-max-64gb") > mps_ms(kResnet, "m3-max-64gb"));
  CHECK(predicted(fp16, "m3-max-64gb").mps_bytes > predicted(kResnet, "m3-max-64gb").mps_bytes);
  const std::string file = kExampleDir + "resnet50_food101_float16.toml";
  CHECK(nlohmann::json::parse(plan_of(file, true))["config"]["autocast"] == "float16");
  CHECK(plan_of(file).find("its forward pass under torch.autocast(dtype=torch.float16) with a "
                           "GradScaler") != std::string::npos);
}

TEST_CASE("float16's GradScaler steps the optimizer in a plan, which has no values to overflow") {
  // Were every step skipped as an overflow, the optimizer would cost nothing: sgd and adamw
  // would take the same time.
  const std::string fp16 = "model = \"resnet50\"\nbatch_size = 1\nautocast = \"float16\"\n";
  CHECK(mps_ms(fp16 + "optimizer = \"adamw\"\n", "m3-max-64gb") >
        mps_ms(fp16 + "optimizer = \"sgd\"\n", "m3-max-64gb") + 1.0);
}
