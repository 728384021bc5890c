// Checks a file written by a lesson's --trace: Chrome Trace Event JSON (the format Perfetto
// opens) with, for every simulated process, a host track and an MPS device track, and complete
// events with non-negative microsecond times. Prints what is wrong and exits non-zero.
//   check_trace TRACE.json LABEL [--max-bytes N] [--processes N] [--summarised yes|no]
//   LABEL: a process the trace must contain, "05_1_timing_gpu_work/warm_up";
//   --max-bytes: the file's largest size; --processes: how many processes it holds;
//   --summarised: whether long loops were summarised (spans of category "summary").

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace {

struct Tracks {
  std::set<std::string> thread_names;
  std::set<int> busy;  // tids with at least one complete event
  std::set<std::string> categories;
};

int fail(const std::string& why) {
  std::fprintf(stderr, "check_trace: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc % 2 == 0) {
    return fail(
        "usage: check_trace TRACE.json LABEL [--max-bytes N] [--processes N] [--summarised yes|no]");
  }
  std::map<std::string, std::string> expect;
  for (int i = 3; i + 1 < argc; i += 2) expect[argv[i]] = argv[i + 1];
  const auto size = std::filesystem::file_size(argv[1]);
  if (expect.count("--max-bytes") && size > std::stoull(expect["--max-bytes"])) {
    return fail(std::string(argv[1]) + " has " + std::to_string(size) + " bytes, more than " +
                expect["--max-bytes"]);
  }
  std::ifstream in(argv[1]);
  if (!in) return fail(std::string("cannot read ") + argv[1]);
  nlohmann::json trace;
  try {
    trace = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    return fail(std::string("not valid JSON: ") + e.what());
  }
  if (!trace.contains("traceEvents") || !trace["traceEvents"].is_array())
    return fail("no traceEvents array");

  std::map<int, Tracks> processes;
  std::map<int, std::string> labels;
  std::size_t spans = 0;
  for (const auto& event : trace["traceEvents"]) {
    const std::string phase = event.at("ph");
    const int pid = event.at("pid");
    if (phase == "M" && event.at("name") == "process_name") labels[pid] = event["args"]["name"];
    if (phase == "M" && event.at("name") == "thread_name")
      processes[pid].thread_names.insert(event["args"]["name"]);
    if (phase != "X") continue;
    ++spans;
    if (!event.at("name").is_string()) return fail("an event without a name");
    if (event.at("ts").get<double>() < 0 || event.at("dur").get<double>() < 0)
      return fail("a negative time");
    processes[pid].busy.insert(event.at("tid").get<int>());
    processes[pid].categories.insert(event.at("cat").get<std::string>());
  }

  if (expect.count("--processes") && labels.size() != std::stoul(expect["--processes"])) {
    return fail("the trace holds " + std::to_string(labels.size()) + " processes, not " +
                expect["--processes"]);
  }
  std::size_t summaries = 0;
  for (const auto& [pid, tracks] : processes) summaries += tracks.categories.count("summary");
  if (expect.count("--summarised") && (summaries > 0) != (expect["--summarised"] == "yes")) {
    return fail(summaries > 0 ? "long loops were summarised" : "nothing was summarised");
  }
  for (const auto& [pid, label] : labels) {
    if (label != argv[2]) continue;
    const Tracks& tracks = processes[pid];
    if (tracks.thread_names != std::set<std::string>{"host", "mps device"})
      return fail(label + ": the tracks are not host and mps device");
    if (tracks.busy != std::set<int>{1, 2}) return fail(label + ": a track has no events");
    for (const char* category : {"dispatch", "kernel", "wait"}) {
      if (tracks.categories.count(category) == 0)
        return fail(label + ": no '" + category + "' events");
    }
    std::printf("%s: %ju bytes, %zu events in %zu processes; %s has host and device tracks\n",
                argv[1], static_cast<std::uintmax_t>(size), spans, labels.size(), label.c_str());
    return 0;
  }
  return fail(std::string("no process named ") + argv[2]);
}
