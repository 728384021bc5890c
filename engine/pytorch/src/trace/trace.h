#pragma once
// Internal: the spans a simulated process records for --trace, on its tracks: the host, the MPS
// command queue and one per DataLoader worker process it started. The recorder outlives
// simulated processes: each one becomes its own process in the trace.

#include <string>
#include <string_view>

namespace engine::detail {

// Host and Device, then the workers' tracks, numbered from worker_track(0).
enum class Track : int { Host = 0, Device = 1 };
Track worker_track(int worker);
// "host", "mps device", "worker 0": the track's name in recordings and traces.
std::string track_name(Track track);

// While one is alive, the current process's host spans are neither traced nor recorded, though
// their time passes: a DataLoader's batch shows as one span, not as its samples' hundreds.
class HostSpansMuted {
 public:
  HostSpansMuted();
  ~HostSpansMuted();
  HostSpansMuted(const HostSpansMuted&) = delete;
  HostSpansMuted& operator=(const HostSpansMuted&) = delete;

 private:
  bool previous_;
};

bool tracing();
// A span of simulated time, in seconds since the process started; a kernel's names the dtype
// it computes in ("float16"; empty for spans that are not kernels).
void trace_span(Track track, std::string_view name, std::string_view category, double start,
                double duration, double bytes = 0, double flops = 0, std::string_view dtype = {});
// Called when a new simulated process starts; `description` says how ("m1-8gb", or
// "m3-max-64gb · PYTORCH_ENABLE_MPS_FALLBACK='1'"). A process started inside a labelled one (a
// cell that restarts, or runs on several machines) is labelled after it, numbered, with that.
void trace_new_process(std::string_view description);

}  // namespace engine::detail
