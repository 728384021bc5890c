// Summarising a Chrome trace. Each simulated process (one per cell) keeps its first
// kDetailedSpans complete events as recorded: the start of a loop, in full. After that, a
// track's consecutive per-operation spans (dispatches, kernels, views, graph builds) merge into
// one span that counts them and names the most frequent; everything else (waits, copies, cpu
// work, fallbacks, events) stays as recorded, so the sync points of every step still show.
//
// The engine writes the full trace, and this reads it back as a stream (nlohmann's parser
// callback drops each event once it is handled), so memory stays small however long the trace.

#include "trace_summary.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>
#include <vector>

#include "engine/errors.h"
#include "engine/sim.h"

namespace engine::notebook {
namespace {

using nlohmann::json;

constexpr std::size_t kDetailedSpans = 10000;  // per simulated process: about 1.3 MB of JSON
constexpr double kMaxGapMicroseconds = 100;    // a longer pause on a track ends a summary span

bool per_operation(const std::string& category) {
  static const std::set<std::string> kinds{"dispatch", "kernel", "view", "compile"};
  return kinds.count(category) > 0;
}

// Consecutive per-operation spans of one track, merged.
struct Summary {
  double start = 0, end = 0, bytes = 0, flops = 0;
  std::size_t count = 0;
  std::map<std::string, std::size_t> names;

  json event(int pid, int tid) const {
    std::vector<std::pair<std::size_t, std::string>> frequent;
    for (const auto& [name, times] : names) frequent.emplace_back(times, name);
    std::sort(frequent.rbegin(), frequent.rend());
    std::string most;
    for (std::size_t i = 0; i < std::min<std::size_t>(3, frequent.size()); ++i) {
      most += (most.empty() ? "" : ", ") + frequent[i].second + " x" + std::to_string(frequent[i].first);
    }
    json args = {{"ops", count}, {"most frequent", most}, {"detail", "summarised; --full-trace keeps every op"}};
    if (bytes > 0) args["bytes"] = bytes;
    if (flops > 0) args["flops"] = flops;
    return {{"name", std::to_string(count) + " ops"}, {"cat", "summary"}, {"ph", "X"}, {"pid", pid},
            {"tid", tid}, {"ts", start}, {"dur", end - start}, {"args", args}};
  }
};

class TraceSummariser {
 public:
  explicit TraceSummariser(std::ostream& out) : out_(out) {}

  void add(json event) {
    if (event.value("ph", "") != "X") return emit(event);
    const int pid = event.at("pid");
    const int tid = event.at("tid");
    if (++spans_[pid] <= kDetailedSpans) return emit(event);
    const std::pair track{pid, tid};
    const double ts = event.at("ts"), dur = event.at("dur");
    auto open = open_.find(track);
    if (open != open_.end() && (!per_operation(event.at("cat")) || ts - open->second.end > kMaxGapMicroseconds)) {
      close(open);
      open = open_.end();
    }
    if (!per_operation(event.at("cat"))) return emit(event);
    if (open == open_.end()) {
      open = open_.emplace(track, Summary{}).first;
      open->second.start = open->second.end = ts;
    }
    Summary& s = open->second;
    s.end = std::max(s.end, ts + dur);
    ++s.count;
    ++s.names[event.at("name").get<std::string>()];
    const json& args = event.value("args", json::object());
    s.bytes += args.value("bytes", 0.0);
    s.flops += args.value("flops", 0.0);
  }

  void finish() {
    while (!open_.empty()) close(open_.begin());
  }

 private:
  void emit(const json& event) {
    out_ << separator_ << event.dump();
    separator_ = ",\n";
  }
  void close(std::map<std::pair<int, int>, Summary>::iterator open) {
    const auto [pid, tid] = open->first;
    emit(open->second.event(pid, tid));
    open_.erase(open);
  }

  std::ostream& out_;
  const char* separator_ = "";
  std::map<int, std::size_t> spans_;                     // complete events seen, per process
  std::map<std::pair<int, int>, Summary> open_;          // per (process, track)
};

void summarise(const std::string& full_path, const std::string& path) {
  std::ifstream in(full_path);
  std::ofstream out(path);
  if (!in || !out) throw Error("cannot write the trace to " + path);
  out << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  TraceSummariser summariser(out);
  // Each event is handed over when its object ends inside traceEvents, then dropped; what is
  // left of the document (displayTimeUnit and an empty list) is already written above.
  try {
    const json rest = json::parse(in, [&](int depth, json::parse_event_t event, json& parsed) {
      if (event != json::parse_event_t::object_end || depth != 2) return true;
      summariser.add(std::move(parsed));
      return false;
    });
  } catch (const json::exception& e) {
    throw Error(std::string("cannot summarise the trace: ") + e.what());
  }
  summariser.finish();
  out << "\n]}\n";
  out.close();  // the last buffered bytes are written here: a full disk shows up now
  if (!out) throw Error("cannot write the trace to " + path + ": " + std::strerror(errno));
}

}  // namespace

void write_lesson_trace(const std::string& path, bool full) {
  if (full) return sim::write_trace(path);
  // The full trace goes to a temporary file of its own, not beside `path`: that may be a device
  // (/dev/stdout) or a directory nobody may write in.
  std::string full_path = (std::filesystem::temp_directory_path() / "mps-course-trace-XXXXXX").string();
  const int fd = ::mkstemp(full_path.data());
  if (fd < 0) throw Error("cannot write the trace: no temporary file for it: " + std::string(std::strerror(errno)));
  ::close(fd);
  try {
    sim::write_trace(full_path);
    summarise(full_path, path);
  } catch (...) {
    std::remove(full_path.c_str());
    throw;
  }
  std::remove(full_path.c_str());
}

}  // namespace engine::notebook
