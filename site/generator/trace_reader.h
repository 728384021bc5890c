#pragma once
// Reads the Chrome trace a lesson writes with --trace (engine/pytorch/src/trace/trace.cpp): one
// process per simulated process, thread 1 the host, thread 2 the MPS device, threads 3 and on
// its DataLoader's worker processes, complete ("X") events in microseconds. A long cell records hundreds of thousands of events, so the file is
// read as a stream and never held whole.

#include <string>
#include <vector>

namespace site {

// Host and Device, then the DataLoader workers' tracks: worker n is Track(2 + n).
enum class Track : int { Host = 0, Device = 1 };
inline int worker_of(Track track) { return static_cast<int>(track) - 2; }

struct Span {
  Track track = Track::Host;
  int name = 0;      // index into TracedProcess::names
  int category = 0;  // index into TracedProcess::names: "dispatch", "kernel", "wait", ...
  double start_ms = 0;
  double duration_ms = 0;
};

struct TracedProcess {
  int pid = 0;
  std::string label;               // "05_timing_and_synchronization/warm_up", "simulated process 3"
  std::vector<std::string> names;  // the distinct names and categories
  std::vector<Span> spans;         // in the order they were recorded
  bool has_device_work() const;
  const std::string& name_of(int index) const { return names[static_cast<std::size_t>(index)]; }
};

// The processes of a trace file in pid order; throws std::runtime_error naming the file.
std::vector<TracedProcess> read_trace(const std::string& path);

}  // namespace site
