#pragma once
// Internal: the spans a simulated process records for --trace, on two tracks (the host and the
// MPS command queue). The recorder outlives simulated processes: each one becomes its own
// process in the trace.

#include <string>
#include <string_view>

namespace engine::detail {

enum class Track { Host, Device };

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
