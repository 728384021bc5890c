// A plan's verdict never rests on a number the machine could not produce: a cpu that cannot hold
// the model's state gets no time, a step that raises for a reason other than memory says so on
// every device and in every output, and a verdict for a device whose run swaps says what the
// other device would need.

#include <doctest/doctest.h>
#include <engine/machine.h>

#include <sstream>
#include <string>
#include <vector>

#include "planner/model_config.h"
#include "planner/plan.h"
#include "planner/prediction.h"
#include "planner/recommendation.h"

namespace {

const std::string kVerdicts = TUTOR_SOURCE_DIR "/tests/engine/planner/verdicts/";

const engine::MachineProfile& named_machine(const char* name) {
  const engine::MachineProfile* found = engine::find_machine(name);
  REQUIRE(found != nullptr);
  return *found;
}

planner::ModelConfig verdict_config(const std::string& name) {
  return planner::read_model_config(kVerdicts + name);
}

// What `course plan NAME ARGS...` prints on stdout, in 400 columns (a line a reason); it must
// succeed.
std::string plan_printed(const std::string& name, std::vector<std::string> args) {
  args.insert(args.begin(), kVerdicts + name);
  std::ostringstream out, err;
  CHECK(planner::plan_command(args, out, err, 400) == 0);
  CHECK(err.str().empty());
  return out.str();
}

}  // namespace

TEST_CASE("a cpu that cannot hold the model's state is predicted to swap, with no step time") {
  const planner::Prediction p =
      planner::predict(verdict_config("gpt3_175b.toml"), named_machine("m4-max-128gb"));
  CHECK(p.cpu == planner::CpuRun::Swaps);
  CHECK_FALSE(p.cpu_seconds());  // once, 295,245,753 ms on a 128 GB Mac
  const planner::Recommendation r = planner::recommend(p);
  CHECK(r.lane == "remote");
  CHECK(plan_printed("gpt3_175b.toml", {"--machine", "m4-max-128gb"})
            .find("cpu memory: the weights, their gradients and the optimizer's state alone "
                  "take 2601.25 GiB, more than the 122.0 GiB free: swaps") != std::string::npos);
}

TEST_CASE("a step that raises for a reason other than memory says so, in text and in JSON") {
  const planner::Prediction p =
      planner::predict(verdict_config("resnet18_cifar_batch1.toml"), named_machine("m1-8gb"));
  CHECK(p.memory == planner::MpsMemory::Raises);  // once, "out of memory"
  CHECK(p.cpu == planner::CpuRun::Raises);
  CHECK(p.why.starts_with("Expected more than 1 value per channel when training"));
  const planner::Recommendation r = planner::recommend(p);
  CHECK(r.lane == "none");
  CHECK(r.reasons.front().find("not for lack of memory") != std::string::npos);

  // once, the error escaped and left stdout empty
  const std::string json =
      plan_printed("resnet18_cifar_batch1.toml", {"--machine", "m1-8gb", "--json"});
  CHECK(json.find("\"cpu\": \"raises\"") != std::string::npos);
  CHECK(json.find("\"memory\": \"raises\"") != std::string::npos);
  CHECK(json.find("\"verdict\": \"none\"") != std::string::npos);
}

TEST_CASE("the batch sweep goes on past a batch of one that batch norm refuses") {
  const std::vector<planner::SweepStep> steps = planner::sweep_batch(
      verdict_config("resnet18_cifar_batch1.toml"), named_machine("m1-8gb"), 8);
  REQUIRE(steps.size() == 4);  // 1, 2, 4, 8
  CHECK(steps[0].mps.memory == planner::MpsMemory::Raises);
  CHECK(steps[1].mps.memory == planner::MpsMemory::Fits);
  CHECK(planner::largest_without_swap(steps) == 8);
  const std::string sweep =
      plan_printed("resnet18_cifar_batch1.toml", {"--machine", "m1-8gb", "--sweep", "batch"});
  CHECK(sweep.find("batch_size 1 raises: Expected more than 1 value per channel") !=
        std::string::npos);
  CHECK(sweep.find("out of memory (limit") == std::string::npos);
}

TEST_CASE("a verdict for mps while it swaps says what the cpu would need") {
  const planner::ModelConfig gpt2 =
      planner::read_model_config(TUTOR_SOURCE_DIR "/engine/planner/examples/train_gpt2.py");
  const planner::Prediction p = planner::predict(gpt2, named_machine("m2-max-32gb"));
  REQUIRE(p.memory == planner::MpsMemory::Swaps);
  const planner::Recommendation r = planner::recommend(p);
  CHECK(r.lane == "mps");
  CHECK(r.reasons.front().find("before macOS swaps") != std::string::npos);
  bool names_the_cpu = false;
  for (const std::string& reason : r.reasons)
    names_the_cpu = names_the_cpu || reason.starts_with("the cpu needs at least the model's state");
  CHECK(names_the_cpu);
}
