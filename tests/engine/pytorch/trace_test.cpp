// --trace writes the Chrome Trace Event format: a traceEvents array of metadata ("M") events
// naming processes and threads, and complete ("X") events with microsecond times.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "engine/data_loader.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/ops.h"
#include "engine/sim.h"
#include "engine/simulated_data.h"
#include "test_support.h"

TEST_CASE("a trace records the host and the device tracks as Chrome trace events") {
  const test_support::Tracing tracing;
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::label_process("trace_test");
  const engine::Tensor x = engine::randn({64, 64}, engine::Device("mps"));
  x.matmul(x).sum().item<float>();
  const auto path = test_support::scratch_file("engine_trace_test.json");
  engine::sim::write_trace(path.string());

  std::ifstream in(path);
  const nlohmann::json trace = nlohmann::json::parse(in);
  REQUIRE(trace.contains("traceEvents"));
  std::set<std::string> thread_names;
  std::set<int> tracks;
  bool named_process = false;
  int spans = 0;
  for (const auto& event : trace["traceEvents"]) {
    const std::string phase = event.at("ph");
    if (phase == "M" && event.at("name") == "thread_name")
      thread_names.insert(event["args"]["name"]);
    if (phase == "M" && event.at("name") == "process_name" && event["args"]["name"] == "trace_test")
      named_process = true;
    if (phase != "X") continue;
    ++spans;
    CHECK(event.at("ts").get<double>() >= 0);
    CHECK(event.at("dur").get<double>() >= 0);
    CHECK(event.at("name").is_string());
    tracks.insert(event.at("tid").get<int>());
  }
  CHECK(named_process);
  CHECK(thread_names == std::set<std::string>{"host", "mps device"});
  CHECK(tracks == std::set<int>{1, 2});
  CHECK(spans >= 5);
  std::filesystem::remove(path);
}

TEST_CASE("a DataLoader's workers are threads of their own in the trace, named for them") {
  const test_support::Tracing tracing;
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::label_process("trace_test/workers");
  {
    const engine::sim::ShapeOnlyGuard shape_only;
    engine::py::torch::utils::data::DataLoader loader(
        engine::sim::data::InMemoryImages({.images = 64}), {.batch_size = 16, .num_workers = 2});
    for (const auto& batch : loader) static_cast<void>(batch);
  }
  const auto path = test_support::scratch_file("engine_trace_workers_test.json");
  engine::sim::write_trace(path.string());
  std::ifstream in(path);
  const nlohmann::json trace = nlohmann::json::parse(in);
  int labelled = -1;
  std::map<int, std::string> names;  // of the labelled process's threads
  std::set<std::string> categories;
  for (const auto& event : trace["traceEvents"]) {
    if (event.at("ph") == "M" && event.at("name") == "process_name" &&
        event["args"]["name"] == "trace_test/workers")
      labelled = event.at("pid");
  }
  for (const auto& event : trace["traceEvents"]) {
    if (event.at("pid") != labelled) continue;
    if (event.at("ph") == "M" && event.at("name") == "thread_name")
      names[event.at("tid")] = event["args"]["name"];
    if (event.at("ph") == "X" && event.at("tid").get<int>() >= 3)
      categories.insert(event.at("cat"));
  }
  CHECK(names == std::map<int, std::string>{
                     {1, "host"}, {2, "mps device"}, {3, "worker 0"}, {4, "worker 1"}});
  CHECK(categories == std::set<std::string>{"startup", "data"});
  std::filesystem::remove(path);
}

TEST_CASE(
    "a trace is valid JSON whatever a process is called: quotes, backslashes and control characters are escaped") {
  const test_support::Tracing tracing;
  const std::string label =
      "a \"quoted\" \\ label\twith\ncontrol \x01 characters and UTF-8: \xc3\xa9";
  engine::sim::label_process(label);
  const auto path = test_support::scratch_file("engine_trace_escape_test.json");
  engine::sim::write_trace(path.string());
  std::ifstream in(path);
  const nlohmann::json trace = nlohmann::json::parse(in);
  bool found = false;
  for (const auto& event : trace["traceEvents"]) {
    found = found || (event.at("name") == "process_name" && event["args"]["name"] == label);
  }
  CHECK(found);
  std::filesystem::remove(path);
}

namespace {

// The complete events of the process labelled `label` in the trace at `path`.
std::vector<nlohmann::json> spans_of(const std::filesystem::path& path, const std::string& label) {
  std::ifstream in(path);
  const nlohmann::json trace = nlohmann::json::parse(in);
  int pid = -1;
  for (const auto& event : trace["traceEvents"]) {
    if (event.at("name") == "process_name" && event["args"]["name"] == label) pid = event.at("pid");
  }
  REQUIRE(pid >= 0);
  std::vector<nlohmann::json> spans;
  for (const auto& event : trace["traceEvents"]) {
    if (event.at("ph") == "X" && event.at("pid") == pid) spans.push_back(event);
  }
  return spans;
}

}  // namespace

TEST_CASE(
    "a summarised trace keeps a process's first 10,000 spans and counts the rest of a loop's ops") {
  const test_support::Tracing tracing;
  engine::sim::use_machine("m3-max-64gb");
  const std::string label = "summarised loop";
  engine::sim::label_process(label);
  engine::Tensor on_cpu = engine::randn({8});
  const engine::Tensor on_mps = engine::randn({32, 32}, engine::Device("mps"));
  for (int step = 0; step < 6000; ++step) {
    on_cpu = on_cpu + on_cpu;                           // cpu ops
    engine::Tensor product = on_mps.matmul(on_mps);     // dispatches and kernels
    if (step % 100 == 99) product.sum().item<float>();  // a sync point: a wait
  }
  const auto full_path = test_support::scratch_file("engine_trace_full.json");
  const auto summarised_path = test_support::scratch_file("engine_trace_summarised.json");
  engine::sim::write_trace(full_path.string(), engine::sim::TraceDetail::Full);
  engine::sim::write_trace(summarised_path.string(), engine::sim::TraceDetail::Summarised);
  const auto full = spans_of(full_path, label);
  const auto summarised = spans_of(summarised_path, label);

  REQUIRE(full.size() > 15000);
  for (std::size_t i = 0; i < 10000; ++i)
    CHECK_MESSAGE(summarised[i] == full[i], "span " << i << " differs");
  std::size_t ops = 0, waits_full = 0, waits_summarised = 0, counted = 0;
  for (std::size_t i = 10000; i < full.size(); ++i) {
    const std::string category = full[i].at("cat");
    if (category == "wait") ++waits_full;
    if (category == "cpu" || category == "dispatch" || category == "kernel" || category == "view")
      ++ops;
  }
  for (std::size_t i = 10000; i < summarised.size(); ++i) {
    const std::string category = summarised[i].at("cat");
    CHECK_MESSAGE(category != "cpu", "cpu ops after the first 10,000 spans are summarised");
    if (category == "wait") ++waits_summarised;
    if (category == "summary") counted += summarised[i]["args"]["ops"].get<std::size_t>();
  }
  CHECK(waits_full > 0);
  CHECK(waits_summarised == waits_full);  // every sync point still shows
  CHECK(counted == ops);                  // each summarised op is counted once
  CHECK((summarised.size() - 10000) * 10 < full.size() - 10000);  // the loop's tail shrinks
  std::filesystem::remove(full_path);
  std::filesystem::remove(summarised_path);
}

TEST_CASE(
    "a process started inside a labelled one is labelled after it, numbered, with how it started") {
  const test_support::Tracing tracing;
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::label_process("lesson/cell");
  engine::sim::use_machine("m1-8gb");
  engine::sim::use_machine("m4-max-128gb");
  engine::sim::restart_with_environment(
      {{"PYTORCH_ENABLE_MPS_FALLBACK", " 0"}, {"PYTORCH_MPS_HIGH_WATERMARK_RATIO", std::nullopt}});
  const auto path = test_support::scratch_file("engine_trace_labels_test.json");
  engine::sim::write_trace(path.string());
  std::ifstream in(path);
  const nlohmann::json trace = nlohmann::json::parse(in);
  std::set<std::string> labels;
  for (const auto& event : trace["traceEvents"]) {
    if (event.at("name") == "process_name") labels.insert(event["args"]["name"].get<std::string>());
  }
  CHECK(labels.count("lesson/cell · process 2 · m1-8gb") == 1);
  CHECK(labels.count("lesson/cell · process 3 · m4-max-128gb") ==
        1);  // named after the cell, not after m1-8gb
  CHECK(labels.count("lesson/cell · process 4 · m4-max-128gb · PYTORCH_ENABLE_MPS_FALLBACK=' 0', "
                     "PYTORCH_MPS_HIGH_WATERMARK_RATIO unset") == 1);
  std::filesystem::remove(path);
}
