// course plan --torch on traces Debian's PyTorch 1.13 made of the PyTorch examples
// (tests/engine/planner/traces/; torch_plan_test.py runs the tracer itself), handed out by a
// tracer that stands in for the learner's Python: every line a traced plan prints, the
// operators it prices by class, and what the planner refuses of a trace or a tracer.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/notebook/text_file.h"
#include "planner/plan.h"
#include "planner/torch_model.h"
#include "planner/training_step.h"

// Named, not anonymous, and holding the tests: the planner's tests are compiled in unity batches.
namespace torch_tests {

const std::string kSource = TUTOR_SOURCE_DIR "/";
const std::string kTraces = kSource + "tests/engine/planner/traces/";

std::string read(const std::string& path) {
  return engine::notebook::read_text_file(path, 16u << 20);
}

// Hands out the committed trace of FILE.py's stem, at its own batch size only.
std::vector<std::string> committed_trace(const std::string& file,
                                         const std::vector<std::int64_t>& batch_sizes) {
  REQUIRE_MESSAGE(batch_sizes.empty(), "no committed traces at other batch sizes");
  return {read(kTraces + std::filesystem::path(file).stem().string() + ".json")};
}

struct Run {
  int status;
  std::string out, err;
};

Run plan(const std::vector<std::string>& args, const planner::Tracer& tracer = committed_trace,
         std::size_t width = 160) {
  std::ostringstream out, err;
  const int status = planner::plan_command(args, out, err, width, tracer);
  return {status, out.str(), err.str()};
}

// The committed traces' names: "lenet5", ...
std::vector<std::string> traced_examples() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kTraces))
    names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string example(const std::string& name) {
  return kSource + "engine/planner/examples/pytorch/" + name + ".py";
}

TEST_CASE("course plan --torch prints, for each traced example, the lines its transcript pins") {
  const std::vector<std::string> names = traced_examples();
  REQUIRE(names.size() == 2);
  for (const std::string& name : names) {
    CAPTURE(name);
    std::string now;
    for (const bool json : {false, true}) {
      std::vector<std::string> args{"--torch", example(name)};
      if (json) args.push_back("--json");
      const Run run = plan(args);
      REQUIRE(run.status == 0);
      now += "$ course plan --torch engine/planner/examples/pytorch/" + name + ".py" +
             (json ? " --json" : "") + "\n" + run.out + "\n";
    }
    const std::string transcript = "tests/engine/planner/transcripts/pytorch_" + name + ".txt";
    std::ifstream in(kSource + transcript);
    std::stringstream committed;
    committed << in.rdbuf();
    const bool same = committed.str() == now;
    const std::filesystem::path written =
        std::filesystem::current_path() / "planner_transcripts" / ("pytorch_" + name + ".txt");
    if (!same) {
      std::filesystem::create_directories(written.parent_path());
      std::ofstream(written) << now;
    }
    CHECK_MESSAGE(same, transcript << " differs from what course plan prints now, which is in "
                                   << written.string());
  }
}

TEST_CASE(
    "a traced step replays through the engine's operators, the ones it lacks priced by "
    "class and named") {
  const planner::ModelConfig lenet =
      planner::traced_model_config(example("lenet5"), committed_trace);
  CHECK(planner::parameter_count(lenet) == 61'706);  // LeNet-5's, as PyTorch counts it
  const Run run = plan({"--torch", example("lenet5"), "--machine", "m1-8gb"});
  CHECK(run.out.find("  estimated: operators the engine lacks, priced as the nearest class it has "
                     "sourced: aten::avg_pool2d x 2 (reduction)\n") != std::string::npos);
  const nlohmann::json json =
      nlohmann::json::parse(plan({"--torch", example("mlp_dropout"), "--json"}).out);
  CHECK(json["config"]["family"] == "torch");
  CHECK(json["config"]["estimated"].empty());  // linear, relu, dropout, cross_entropy: the engine's
  CHECK(json["config"]["operators"]["forward"] == 29);
}

// The committed trace of the MLP example at another batch size: its batch dimension, the first
// of every tensor 256 long (no parameter's is), made `batch_size`. A stand-in for tracing again.
std::string mlp_trace_at(std::int64_t batch_size) {
  nlohmann::json trace = nlohmann::json::parse(read(kTraces + "mlp_dropout.json"));
  for (auto& [id, described] : trace["tensors"].items()) {
    if (!described[0].empty() && described[0][0] == 256) described[0][0] = batch_size;
  }
  trace["batch_size"] = batch_size;
  return trace.dump();
}

TEST_CASE("a traced model's batch sweep plans each batch from the step traced at that batch") {
  std::vector<std::vector<std::int64_t>> asked;
  const planner::Tracer tracer = [&](const std::string&, const std::vector<std::int64_t>& sizes) {
    asked.push_back(sizes);
    if (sizes.empty()) return std::vector<std::string>{read(kTraces + "mlp_dropout.json")};
    std::vector<std::string> traces;
    for (const std::int64_t size : sizes) traces.push_back(mlp_trace_at(size));
    return traces;
  };
  const Run run =
      plan({"--torch", example("mlp_dropout"), "--machine", "m1-8gb", "--sweep", "batch"}, tracer);
  CHECK(run.status == 0);
  CHECK(run.out.find("\n      1 ") != std::string::npos);
  CHECK(run.out.find("largest batch_size without swap: ") != std::string::npos);
  // traced once for the plan, once for every batch size the sweep may try
  REQUIRE(asked.size() == 2);
  CHECK(asked[1] == planner::sweep_batch_sizes());
}

TEST_CASE("a trace that is not one, or too large to plan, is refused naming the file") {
  const std::string lenet = read(kTraces + "lenet5.json");
  const auto refusal = [](std::string trace) {
    const Run run = plan({"--torch", "model.py"},
                         [trace](const std::string&, const std::vector<std::int64_t>&) {
                           return std::vector<std::string>{trace};
                         });
    CHECK(run.status == 1);
    return run.err;
  };
  CHECK(refusal("{not json")
            .starts_with("course plan: model.py: the tracer's output is not a "
                         "trace: [json.exception.parse_error"));
  nlohmann::json future = nlohmann::json::parse(lenet);
  future["format"] = 2;
  CHECK(
      refusal(future.dump())
          .starts_with(
              "course plan: model.py: the trace holds a trace of format 2; this planner reads format 1"));
  nlohmann::json huge = nlohmann::json::parse(lenet);
  huge["tensors"]["1"][0] = {1 << 20, 1 << 20, 1 << 20};
  CHECK(refusal(huge.dump())
            .find("the trace holds a tensor of 1.15e+18 elements; the planner "
                  "takes tensors of up to 2^37") != std::string::npos);
  nlohmann::json stranger = nlohmann::json::parse(lenet);
  stranger["loss"] = 999'999;
  CHECK(refusal(stranger.dump()).find("the trace names a tensor its table does not hold") !=
        std::string::npos);
  nlohmann::json long_step = nlohmann::json::parse(lenet);
  const nlohmann::json op = long_step["ops"][0];
  for (int i = 0; i < 1 << 16; ++i) long_step["ops"].push_back(op);
  CHECK(refusal(long_step.dump())
            .find("a forward pass of 65558 operators; a plan runs at most "
                  "65536") != std::string::npos);
}

TEST_CASE("a tracer that could not trace has said why: course plan adds nothing, and exits 1") {
  const Run run =
      plan({"--torch", "model.py"},
           [](const std::string&, const std::vector<std::int64_t>&) -> std::vector<std::string> {
             throw planner::NotTraced{};
           });
  CHECK(run.status == 1);
  CHECK(run.err.empty());
  CHECK(run.out.empty());
}

#ifdef TUTOR_TORCH_2_TRACES
// The same models as PyTorch 2.11 traced them (tests/tools/capture_torch_traces.py): its ATen
// decompositions differ from 1.13's, and the replay must price them alike.
TEST_CASE("traces PyTorch 2.11 made plan, and the families' agree with their native plans") {
  for (const auto& entry : std::filesystem::directory_iterator(TUTOR_TORCH_2_TRACES)) {
    const std::string name = entry.path().stem().string();
    CAPTURE(name);
    const std::string trace = read(entry.path().string());
    const planner::Tracer hand_out = [trace](const std::string&, const std::vector<std::int64_t>&) {
      return std::vector<std::string>{trace};
    };
    const Run traced =
        plan({"--torch", name + ".py", "--machine", "m3-max-64gb", "--json"}, hand_out);
    REQUIRE(traced.status == 0);
    if (!name.starts_with("family_")) continue;
    const Run native = plan({kSource + "tests/engine/planner/pytorch/" + name.substr(7) + ".toml",
                             "--machine", "m3-max-64gb", "--json"});
    const nlohmann::json a = nlohmann::json::parse(native.out)["machines"][0],
                         b = nlohmann::json::parse(traced.out)["machines"][0];
    for (const char* key : {"cpu_ms", "mps_ms", "mps_bytes"})
      CHECK(b[key].get<double>() == doctest::Approx(a[key].get<double>()).epsilon(0.05));
  }
}
#endif

TEST_CASE("a traced step is offered no memory recipe: it replays the one batch it was traced at") {
  const planner::ModelConfig lenet =
      planner::traced_model_config(example("lenet5"), committed_trace);
  planner::Prediction too_large;  // as a step that needs more Metal memory than PyTorch allows
  too_large.machine = engine::find_machine("m1-8gb");
  too_large.memory = planner::MpsMemory::OutOfMemory;
  too_large.state_bytes = planner::model_state_bytes(lenet);
  CHECK_FALSE(planner::memory_fix(lenet, too_large).has_value());
  // where a family's config the same prediction would be tried with the recipes
  const planner::ModelConfig mlp =
      planner::parse_toml_config("family = \"mlp\"\nwidths = [784, 10]\n", "mlp.toml");
  too_large.state_bytes = planner::model_state_bytes(mlp);
  CHECK(planner::memory_fix(mlp, too_large).has_value());
}

}  // namespace torch_tests
