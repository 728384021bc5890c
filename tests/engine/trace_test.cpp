// --trace writes the Chrome Trace Event format: a traceEvents array of metadata ("M") events
// naming processes and threads, and complete ("X") events with microsecond times.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/sim.h"

TEST_CASE("a trace records the host and the device tracks as Chrome trace events") {
  engine::sim::start_tracing();
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::label_process("trace_test");
  const engine::Tensor x = engine::randn({64, 64}, engine::Device("mps"));
  x.matmul(x).sum().item<float>();
  const auto path = std::filesystem::temp_directory_path() / "engine_trace_test.json";
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
    if (phase == "M" && event.at("name") == "thread_name") thread_names.insert(event["args"]["name"]);
    if (phase == "M" && event.at("name") == "process_name" && event["args"]["name"] == "trace_test") named_process = true;
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

TEST_CASE("a trace is valid JSON whatever a process is called: quotes, backslashes and control characters are escaped") {
  engine::sim::start_tracing();
  const std::string label = "a \"quoted\" \\ label\twith\ncontrol \x01 characters and UTF-8: \xc3\xa9";
  engine::sim::label_process(label);
  const auto path = std::filesystem::temp_directory_path() / "engine_trace_escape_test.json";
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
