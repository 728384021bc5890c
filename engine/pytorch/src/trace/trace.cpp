// The trace recorder and its Chrome Trace Event writer (the JSON format Perfetto and
// chrome://tracing open): one process per simulated process, one thread per track.

#include "trace/trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/errors.h"
#include "engine/sim.h"
#include "trace/timeline_recording.h"

namespace engine {
namespace detail {
namespace {

// A long training loop records hundreds of thousands of spans, so a span is small: its name
// and category are indices into a table of the distinct strings.
struct Span {
  int process;
  Track track;
  std::uint32_t name, category, dtype;  // dtype: the empty string's index for no dtype
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
    const auto [it, added] =
        string_ids.try_emplace(std::string(text), static_cast<std::uint32_t>(strings.size()));
    if (added) strings.emplace_back(text);
    return it->second;
  }
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

bool& host_spans_muted() {
  static bool muted = false;
  return muted;
}

}  // namespace

HostSpansMuted::HostSpansMuted() : previous_(std::exchange(host_spans_muted(), true)) {}

HostSpansMuted::~HostSpansMuted() { host_spans_muted() = previous_; }

Track worker_track(int worker) { return static_cast<Track>(2 + worker); }

std::string track_name(Track track) {
  if (track == Track::Host) return "host";
  if (track == Track::Device) return "mps device";
  return "worker " + std::to_string(static_cast<int>(track) - 2);
}

bool tracing() { return recorder().on; }

void trace_span(Track track, std::string_view name, std::string_view category, double start,
                double duration, double bytes, double flops, std::string_view dtype) {
  if (track == Track::Host && host_spans_muted()) return;
  record_in_timelines(track, name, category, start, duration);
  Recorder& r = recorder();
  if (!r.on) return;
  r.spans.push_back({r.process, track, r.intern(name), r.intern(category), r.intern(dtype), start,
                     duration, bytes, flops});
}

void trace_new_process(std::string_view description) {
  Recorder& r = recorder();
  const auto parent = r.labels.find(r.process);
  ++r.process;
  if (parent == r.labels.end()) return;
  const std::string cell = parent->second.substr(0, parent->second.find(" · "));
  // The cell's own process is the first; those it starts count on from 2.
  const auto started = std::count_if(r.labels.begin(), r.labels.end(), [&](const auto& label) {
    return label.second.rfind(cell + " · ", 0) == 0;
  });
  r.labels[r.process] = fmt::format("{} · process {} · {}", cell, started + 2, description);
}

}  // namespace detail

namespace sim {

void start_tracing() { detail::recorder().on = true; }

void stop_tracing() {
  detail::Recorder& r = detail::recorder();
  const int process = r.process;  // the simulated process goes on
  r = detail::Recorder();
  r.process = process;
}

void label_process(std::string label) {
  detail::recorder().labels[detail::recorder().process] = std::move(label);
}

namespace {

using detail::Track;

// Summarising (TraceDetail::Summarised): each simulated process keeps its first
// kDetailedSpans spans as recorded, the start of a loop in full. After that, a track's
// consecutive per-operation spans (dispatches, kernels, views, graph builds, cpu kernels, the
// framework's bookkeeping around them) merge into one span that counts them and names the most
// frequent; everything else (waits, copies, fallbacks, events) stays as recorded, so the sync
// points of every step still show.
constexpr std::size_t kDetailedSpans = 10000;  // per simulated process: about 1.3 MB of JSON
constexpr double kMaxGapSeconds = 100e-6;      // a longer pause on a track ends a summary span

bool per_operation(std::string_view category) {
  return category == "dispatch" || category == "kernel" || category == "view" ||
         category == "compile" || category == "cpu" || category == "framework";
}

// Consecutive per-operation spans of one track, merged.
struct Summary {
  double start = 0, end = 0, bytes = 0, flops = 0;
  std::size_t count = 0;
  std::map<std::uint32_t, std::size_t> names;  // times each name occurred
};

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

// Thread 1 is the host, 2 the MPS device, 3 and on the DataLoader workers.
int thread_of(Track track) { return 1 + static_cast<int>(track); }

// Streams one event per line instead of building the whole document, so writing a long trace
// takes little memory. Written with fmt rather than a JSON library: the events are flat and
// few-fielded, and a JSON library's templates would double this file's compile time.
class TraceWriter {
 public:
  TraceWriter(const detail::Recorder& recorder, std::ofstream& out) : r_(recorder), out_(out) {}

  void metadata(const char* name, int process, int thread, std::string_view value) {
    fmt::format_to(std::back_inserter(event_), R"({{"name": "{}", "ph": "M", "pid": {})", name,
                   process);
    if (thread > 0) fmt::format_to(std::back_inserter(event_), R"(, "tid": {})", thread);
    fmt::format_to(std::back_inserter(event_), R"(, "args": {{"name": )");
    append_json_string(event_, value);
    fmt::format_to(std::back_inserter(event_), "}}}}");
    emit();
  }

  void span(const detail::Span& s) {
    begin_span(r_.strings[s.name], r_.strings[s.category], s.process, s.track, s.start, s.duration);
    const char* separator = "";
    if (s.bytes > 0)
      fmt::format_to(std::back_inserter(event_), R"({}"bytes": {})", std::exchange(separator, ", "),
                     s.bytes);
    if (s.flops > 0)
      fmt::format_to(std::back_inserter(event_), R"({}"flops": {})", std::exchange(separator, ", "),
                     s.flops);
    if (!r_.strings[s.dtype].empty())
      fmt::format_to(std::back_inserter(event_), R"({}"dtype": "{}")", separator,
                     r_.strings[s.dtype]);
    fmt::format_to(std::back_inserter(event_), "}}}}");
    emit();
  }

  void summary(int process, Track track, const Summary& s) {
    std::vector<std::pair<std::size_t, std::string_view>> frequent;
    for (const auto& [name, times] : s.names) frequent.emplace_back(times, r_.strings[name]);
    std::sort(frequent.rbegin(), frequent.rend());
    std::string most;
    for (std::size_t i = 0; i < std::min<std::size_t>(3, frequent.size()); ++i) {
      most +=
          fmt::format("{}{} x{}", most.empty() ? "" : ", ", frequent[i].second, frequent[i].first);
    }
    begin_span(fmt::format("{} ops", s.count), "summary", process, track, s.start, s.end - s.start);
    fmt::format_to(std::back_inserter(event_), R"("ops": {}, "most frequent": )", s.count);
    append_json_string(event_, most);
    fmt::format_to(std::back_inserter(event_),
                   R"(, "detail": "summarised; --full-trace keeps every op")");
    if (s.bytes > 0) fmt::format_to(std::back_inserter(event_), R"(, "bytes": {})", s.bytes);
    if (s.flops > 0) fmt::format_to(std::back_inserter(event_), R"(, "flops": {})", s.flops);
    fmt::format_to(std::back_inserter(event_), "}}}}");
    emit();
  }

 private:
  // The fields every complete event has, up to the opening of its args.
  void begin_span(std::string_view name, std::string_view category, int process, Track track,
                  double start, double duration) {
    fmt::format_to(std::back_inserter(event_), R"({{"name": )");
    append_json_string(event_, name);
    fmt::format_to(std::back_inserter(event_), R"(, "cat": )");
    append_json_string(event_, category);
    fmt::format_to(std::back_inserter(event_),
                   R"(, "ph": "X", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{)", process,
                   thread_of(track), start * 1e6, duration * 1e6);
  }

  void emit() {
    out_ << separator_;
    out_.write(event_.data(), static_cast<std::streamsize>(event_.size()));
    event_.clear();
    separator_ = ",\n";
  }

  const detail::Recorder& r_;
  std::ofstream& out_;
  fmt::memory_buffer event_;
  const char* separator_ = "";
};

// Hands each recorded span to the writer, or folds it into its track's open summary.
class Summariser {
 public:
  Summariser(const detail::Recorder& recorder, TraceWriter& writer)
      : r_(recorder), writer_(writer) {}

  void add(const detail::Span& s) {
    if (++spans_[s.process] <= kDetailedSpans) return writer_.span(s);
    const std::pair track{s.process, s.track};
    const bool merges = per_operation(r_.strings[s.category]);
    auto open = open_.find(track);
    if (open != open_.end() && (!merges || s.start - open->second.end > kMaxGapSeconds)) {
      close(open);
      open = open_.end();
    }
    if (!merges) return writer_.span(s);
    if (open == open_.end()) {
      open = open_.emplace(track, Summary{}).first;
      open->second.start = open->second.end = s.start;
    }
    Summary& summary = open->second;
    summary.end = std::max(summary.end, s.start + s.duration);
    ++summary.count;
    ++summary.names[s.name];
    summary.bytes += s.bytes;
    summary.flops += s.flops;
  }

  void finish() {
    while (!open_.empty()) close(open_.begin());
  }

 private:
  void close(std::map<std::pair<int, Track>, Summary>::iterator open) {
    writer_.summary(open->first.first, open->first.second, open->second);
    open_.erase(open);
  }

  const detail::Recorder& r_;
  TraceWriter& writer_;
  std::map<int, std::size_t> spans_;               // spans seen, per process
  std::map<std::pair<int, Track>, Summary> open_;  // per (process, track)
};

}  // namespace

void write_trace(const std::string& path, TraceDetail level) {
  const detail::Recorder& r = detail::recorder();
  std::ofstream out(path);
  const auto fail = [&] {
    throw Error("cannot write the trace to " + path + ": " + std::strerror(errno));
  };
  if (!out) fail();
  std::map<int, std::string> processes = r.labels;
  std::map<int, std::set<Track>> workers;  // per process, the worker tracks it has spans on
  for (const detail::Span& s : r.spans) {
    processes.try_emplace(s.process, "simulated process " + std::to_string(s.process));
    if (s.track != Track::Host && s.track != Track::Device) workers[s.process].insert(s.track);
  }
  out << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  TraceWriter writer(r, out);
  for (const auto& [process, label] : processes) {
    writer.metadata("process_name", process, 0, label);
    writer.metadata("thread_name", process, 1, "host");
    writer.metadata("thread_name", process, 2, "mps device");
    for (const Track track : workers[process])
      writer.metadata("thread_name", process, thread_of(track), detail::track_name(track));
  }
  if (level == TraceDetail::Full) {
    for (const detail::Span& s : r.spans) writer.span(s);
  } else {
    Summariser summariser(r, writer);
    for (const detail::Span& s : r.spans) summariser.add(s);
    summariser.finish();
  }
  out << "\n]}\n";
  out.close();  // the last buffered bytes are written here: a full disk shows up now
  if (!out) fail();
}

}  // namespace sim
}  // namespace engine
