// The trace recorder and its Chrome Trace Event writer (the JSON format Perfetto and
// chrome://tracing open): one process per simulated process, one thread per track.

#include "runtime/trace.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <vector>

#include "engine/errors.h"
#include "engine/sim.h"

namespace engine {
namespace detail {
namespace {

// A long training loop records hundreds of thousands of spans, so a span is small: its name
// and category are indices into a table of the distinct strings.
struct Span {
  int process;
  Track track;
  std::uint32_t name, category;
  double start, duration, bytes, flops;
};

struct Recorder {
  bool on = false;
  int process = 1;
  std::vector<Span> spans;
  std::vector<std::string> strings;
  std::unordered_map<std::string, std::uint32_t> string_ids;
  std::map<int, std::string> labels;

  std::uint32_t intern(std::string_view text) {
    const auto [it, added] = string_ids.try_emplace(std::string(text), static_cast<std::uint32_t>(strings.size()));
    if (added) strings.emplace_back(text);
    return it->second;
  }
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
  r.spans.push_back({r.process, track, r.intern(name), r.intern(category), start, duration, bytes, flops});
}

void trace_new_process() { ++recorder().process; }

}  // namespace detail

namespace sim {

void start_tracing() { detail::recorder().on = true; }

void label_process(std::string label) {
  detail::recorder().labels[detail::recorder().process] = std::move(label);
}

// Streams one event per line instead of building the whole document, so writing a long trace
// takes little memory.
void write_trace(const std::string& path) {
  using nlohmann::json;
  const detail::Recorder& r = detail::recorder();
  std::ofstream out(path);
  const auto fail = [&] { throw Error("cannot write the trace to " + path + ": " + std::strerror(errno)); };
  if (!out) fail();
  std::map<int, std::string> processes = r.labels;
  for (const detail::Span& s : r.spans) processes.try_emplace(s.process, "simulated process " + std::to_string(s.process));
  const char* separator = "";
  auto emit = [&](const json& event) {
    out << separator << event.dump();
    separator = ",\n";
  };
  out << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  for (const auto& [process, label] : processes) {
    emit({{"name", "process_name"}, {"ph", "M"}, {"pid", process}, {"args", {{"name", label}}}});
    emit({{"name", "thread_name"}, {"ph", "M"}, {"pid", process}, {"tid", 1}, {"args", {{"name", "host"}}}});
    emit({{"name", "thread_name"}, {"ph", "M"}, {"pid", process}, {"tid", 2}, {"args", {{"name", "mps device"}}}});
  }
  for (const detail::Span& s : r.spans) {
    json args = json::object();
    if (s.bytes > 0) args["bytes"] = s.bytes;
    if (s.flops > 0) args["flops"] = s.flops;
    emit({{"name", r.strings[s.name]}, {"cat", r.strings[s.category]}, {"ph", "X"}, {"pid", s.process},
          {"tid", s.track == detail::Track::Host ? 1 : 2}, {"ts", s.start * 1e6},
          {"dur", s.duration * 1e6}, {"args", args}});
  }
  out << "\n]}\n";
  out.close();  // the last buffered bytes are written here: a full disk shows up now
  if (!out) fail();
}

}  // namespace sim
}  // namespace engine
