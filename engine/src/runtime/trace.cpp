// The trace recorder and its Chrome Trace Event writer (the JSON format Perfetto and
// chrome://tracing open): one process per simulated process, one thread per track.

#include "runtime/trace.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <map>
#include <unordered_map>
#include <vector>

#include "engine/errors.h"
#include "engine/sim.h"
#include "runtime/timeline_recording.h"

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
  record_in_timelines(track, name, category, start, duration);
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

namespace {

// A JSON string: quotes, and escapes for the characters JSON requires (the rest, UTF-8
// included, as it is).
void append_json_string(fmt::memory_buffer& out, std::string_view text) {
  out.push_back('"');
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

}  // namespace

// Streams one event per line instead of building the whole document, so writing a long trace
// takes little memory. Written with fmt rather than a JSON library: the events are flat and
// few-fielded, and a JSON library's templates would double this file's compile time.
void write_trace(const std::string& path) {
  const detail::Recorder& r = detail::recorder();
  std::ofstream out(path);
  const auto fail = [&] { throw Error("cannot write the trace to " + path + ": " + std::strerror(errno)); };
  if (!out) fail();
  std::map<int, std::string> processes = r.labels;
  for (const detail::Span& s : r.spans) processes.try_emplace(s.process, "simulated process " + std::to_string(s.process));
  fmt::memory_buffer event;
  const char* separator = "";
  const auto emit = [&] {
    out << separator;
    out.write(event.data(), static_cast<std::streamsize>(event.size()));
    event.clear();
    separator = ",\n";
  };
  const auto metadata = [&](const char* name, int process, int thread, std::string_view value) {
    fmt::format_to(std::back_inserter(event), R"({{"name": "{}", "ph": "M", "pid": {})", name, process);
    if (thread > 0) fmt::format_to(std::back_inserter(event), R"(, "tid": {})", thread);
    fmt::format_to(std::back_inserter(event), R"(, "args": {{"name": )");
    append_json_string(event, value);
    fmt::format_to(std::back_inserter(event), "}}}}");
    emit();
  };
  out << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  for (const auto& [process, label] : processes) {
    metadata("process_name", process, 0, label);
    metadata("thread_name", process, 1, "host");
    metadata("thread_name", process, 2, "mps device");
  }
  for (const detail::Span& s : r.spans) {
    fmt::format_to(std::back_inserter(event), R"({{"name": )");
    append_json_string(event, r.strings[s.name]);
    fmt::format_to(std::back_inserter(event), R"(, "cat": )");
    append_json_string(event, r.strings[s.category]);
    fmt::format_to(std::back_inserter(event), R"(, "ph": "X", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{)",
                   s.process, s.track == detail::Track::Host ? 1 : 2, s.start * 1e6, s.duration * 1e6);
    if (s.bytes > 0) fmt::format_to(std::back_inserter(event), R"("bytes": {})", s.bytes);
    if (s.flops > 0) fmt::format_to(std::back_inserter(event), R"({}"flops": {})", s.bytes > 0 ? ", " : "", s.flops);
    fmt::format_to(std::back_inserter(event), "}}}}");
    emit();
  }
  out << "\n]}\n";
  out.close();  // the last buffered bytes are written here: a full disk shows up now
  if (!out) fail();
}

}  // namespace sim
}  // namespace engine
