#pragma once
// The emulator's profiler view, for a program to read: the spans of the simulated host's and
// MPS device's timelines, the same ones --trace writes for Perfetto, recorded while a
// sim::TimelineRecording is alive. Not a PyTorch API. On a Mac the same story takes two
// tools: torch.profiler for the host's operators, and Instruments' Metal System Trace (or
// torch.mps.profiler's signposts) for the GPU; asitop shows only how busy the GPU is.

#include <string>
#include <vector>

namespace engine::sim {

struct Span {
  std::string track;  // "host", "mps device", or a DataLoader worker's, "worker 0"
  std::string name;   // the operator ("aten::mm"), copy or wait ("wait: item")
  // host: "dispatch" (encoding an mps op), "compile" (building its GPU code on first use, or
  // torch.compile), "cpu" (an op computed on the cpu), "view", "framework" (autograd's nodes,
  // an optimizer's Python loop, the calls of backward(), step() and zero_grad()), "wait" (for
  // the device, or for a DataLoader's batch), "host" (time.sleep: the script's own work),
  // "fallback", "data" (loading a batch, sim::spend_cpu), "startup" (starting a DataLoader
  // worker); device: "kernel", "copy", "event"; a worker: "startup", "data"
  std::string category;
  double start = 0;     // seconds since the simulated process started
  double duration = 0;  // seconds
};

// Records every span from its construction to its destruction (recordings may nest).
class TimelineRecording {
 public:
  TimelineRecording();
  ~TimelineRecording();
  TimelineRecording(const TimelineRecording&) = delete;
  TimelineRecording& operator=(const TimelineRecording&) = delete;

  const std::vector<Span>& spans() const noexcept { return spans_; }
  void add(Span span) { spans_.push_back(std::move(span)); }

 private:
  std::vector<Span> spans_;
};

}  // namespace engine::sim
