#include "trace_reader.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

namespace site {
namespace {

using nlohmann::json;

class Reader {
 public:
  // Called for each event once it is parsed; the parser then drops it.
  void add(const json& event) {
    const std::string phase = event.at("ph").get<std::string>();
    const int pid = event.at("pid").get<int>();
    Process& process = processes_[pid];
    if (phase == "M" && event.at("name") == "process_name") {
      process.traced.label = event.at("args").at("name").get<std::string>();
    } else if (phase == "X") {
      const int tid = event.at("tid").get<int>();
      process.traced.spans.push_back(
          Span{.track = static_cast<Track>(std::max(tid, 1) - 1),
               .name = process.intern(event.at("name").get<std::string>()),
               .category = process.intern(event.value("cat", std::string("other"))),
               .start_ms = event.at("ts").get<double>() / 1000,
               .duration_ms = event.at("dur").get<double>() / 1000});
    }
  }

  std::vector<TracedProcess> take() {
    std::vector<TracedProcess> result;
    for (auto& [pid, process] : processes_) {
      process.traced.pid = pid;
      if (process.traced.label.empty())
        process.traced.label = "simulated process " + std::to_string(pid);
      result.push_back(std::move(process.traced));
    }
    return result;
  }

 private:
  struct Process {
    TracedProcess traced;
    std::unordered_map<std::string, int> ids;
    int intern(const std::string& text) {
      const auto [it, added] = ids.try_emplace(text, static_cast<int>(traced.names.size()));
      if (added) traced.names.push_back(text);
      return it->second;
    }
  };
  std::map<int, Process> processes_;
};

}  // namespace

bool TracedProcess::has_device_work() const {
  return std::any_of(spans.begin(), spans.end(),
                     [](const Span& s) { return s.track == Track::Device; });
}

std::vector<TracedProcess> read_trace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the trace " + path);
  Reader reader;
  // Depth 2 is an element of traceEvents: each event is handed to the reader and dropped from
  // the document, so memory holds one event at a time and the document ends up a skeleton.
  const json::parser_callback_t keep = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_end && depth == 2) {
      reader.add(parsed);
      return false;
    }
    return true;
  };
  json skeleton;
  try {
    skeleton = json::parse(in, keep);
  } catch (const std::exception& e) {
    throw std::runtime_error("the trace " + path + " is not a Chrome trace: " + e.what());
  }
  if (!skeleton.is_object() || !skeleton.contains("traceEvents")) {
    throw std::runtime_error("the trace " + path + " has no traceEvents");
  }
  return reader.take();
}

}  // namespace site
