#pragma once
// The emulator's profiler view, for a program to read: the spans of the simulated host's and
// MPS device's timelines, the same ones --trace writes for Perfetto, recorded while a
// sim::TimelineRecording is alive. Not a PyTorch API. On a Mac the same story takes two
// tools: torch.profiler for the host's operators, and Instruments' Metal System Trace (or
// torch.mps.profiler's signposts) for the GPU; asitop shows only how busy the GPU is.

#include <map>
#include <string>
#include <string_view>
#include <tuple>
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

// The time spent per track, category and name while it is alive, keeping no span: what
// torch.profiler's key_averages() gives, for a program that runs many steps and needs only their
// sums. Each span counts whole, where it was recorded, even the part of a GPU kernel that runs
// after the totals end.
class TimelineTotals {
 public:
  using Key = std::tuple<std::string, std::string, std::string>;  // track, category, name

  // Orders keys by their three names, so that three string_views find a key without a copy.
  struct KeyLess {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      return views(a) < views(b);
    }

   private:
    using Views = std::tuple<std::string_view, std::string_view, std::string_view>;
    template <class T>
    static Views views(const T& key) {
      return {std::get<0>(key), std::get<1>(key), std::get<2>(key)};
    }
  };

  TimelineTotals();
  ~TimelineTotals();
  TimelineTotals(const TimelineTotals&) = delete;
  TimelineTotals& operator=(const TimelineTotals&) = delete;

  // Seconds per (track, category, name).
  const std::map<Key, double, KeyLess>& seconds() const noexcept { return seconds_; }
  void add(std::string_view track, std::string_view category, std::string_view name,
           double duration);

 private:
  std::map<Key, double, KeyLess> seconds_;
};

}  // namespace engine::sim
