// The trace recorder and its Chrome Trace Event writer (the JSON format Perfetto and
// chrome://tracing open): one process per simulated process, one thread per track.

#include "runtime/trace.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/errors.h"
#include "engine/sim.h"

namespace engine {
namespace detail {
namespace {

struct Span {
  int process;
  Track track;
  std::string name, category;
  double start, duration, bytes, flops;
};

struct Recorder {
  bool on = false;
  int process = 1;
  std::vector<Span> spans;
  std::map<int, std::string> labels;
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

}  // namespace

bool tracing() { return recorder().on; }

void trace_span(Track track, std::string_view name, std::string_view category, double start,
                double duration, double bytes, double flops) {
  Recorder& r = recorder();
  if (!r.on) return;
  r.spans.push_back({r.process, track, std::string(name), std::string(category), start, duration,
                     bytes, flops});
}

void trace_new_process() { ++recorder().process; }

}  // namespace detail

namespace sim {

void start_tracing() { detail::recorder().on = true; }

void label_process(std::string label) {
  detail::recorder().labels[detail::recorder().process] = std::move(label);
}

void write_trace(const std::string& path) {
  using nlohmann::json;
  const detail::Recorder& r = detail::recorder();
  std::map<int, std::string> processes = r.labels;
  for (const detail::Span& s : r.spans) processes.try_emplace(s.process, "simulated process " + std::to_string(s.process));
  json events = json::array();
  for (const auto& [process, label] : processes) {
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", process}, {"args", {{"name", label}}}});
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", process}, {"tid", 1},
                      {"args", {{"name", "host"}}}});
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", process}, {"tid", 2},
                      {"args", {{"name", "mps device"}}}});
  }
  for (const detail::Span& s : r.spans) {
    json args = json::object();
    if (s.bytes > 0) args["bytes"] = s.bytes;
    if (s.flops > 0) args["flops"] = s.flops;
    events.push_back({{"name", s.name}, {"cat", s.category}, {"ph", "X"}, {"pid", s.process},
                      {"tid", s.track == detail::Track::Host ? 1 : 2}, {"ts", s.start * 1e6},
                      {"dur", s.duration * 1e6}, {"args", args}});
  }
  std::ofstream out(path);
  if (!out) throw Error("cannot write the trace to " + path);
  out << json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump(1) << '\n';
}

}  // namespace sim
}  // namespace engine
