// torch.mps.synchronize and torch.mps.Event on the emulated stream (torch/mps/event.py,
// aten/src/ATen/mps/MPSEvent.mm): events are markers on the device timeline.

#include <algorithm>
#include <string>

#include "engine/backends/mps.h"
#include "engine/errors.h"
#include "engine/mps.h"
#include "machine/process.h"
#include "mps/stream.h"
#include "trace/trace.h"

namespace engine {
namespace {

// What every torch.mps hook raises in a build without MPS (MPSHooksInterface).
void require_mps_build(const char* hook) {
  if (!py::torch::backends::mps::is_built()) {
    throw Error(std::string("Cannot execute ") + hook + "() without MPS backend.");
  }
}

}  // namespace

void mps::synchronize() {
  require_mps_build("deviceSynchronize");
  detail::wait_for_device("torch.mps.synchronize");
}

namespace py::torch::mps {

struct Event::State {
  std::int64_t id = 0;
  bool enable_timing = false;
  bool recorded = false;
  double completes_at = 0;  // when the work before the marker finishes, on the device timeline
  std::weak_ptr<std::vector<std::int64_t>>
      pool;  // where the id goes back: torch._C._mps_releaseEvent

  ~State() {
    if (const auto released = pool.lock()) released->push_back(id);
  }
};

Event::Event(bool enable_timing) : state_(std::make_shared<State>()) {
  require_mps_build("acquireEvent");
  detail::Process& p = detail::process();
  std::vector<std::int64_t>& released = *p.released_event_ids;
  if (released.empty()) {
    state_->id = p.next_event_id++;
  } else {
    state_->id = released.back();
    released.pop_back();
  }
  state_->enable_timing = enable_timing;
  state_->pool = p.released_event_ids;
}

std::int64_t Event::id() const noexcept { return state_->id; }

void Event::record() {
  detail::Process& p = detail::process();
  detail::Timeline& t = p.timeline;
  t.host_now += p.machine.metal_dispatch_seconds;  // encode the signal and commit
  state_->completes_at = std::max(t.device_free, t.host_now);
  state_->recorded = true;
  detail::trace_span(detail::Track::Device, "event " + std::to_string(state_->id), "event",
                     state_->completes_at, 0);
}

void Event::wait() {
  detail::process().timeline.host_now += detail::process().machine.cpu_op_seconds;
}

bool Event::query() const {
  return state_->recorded && state_->completes_at <= detail::process().timeline.host_now;
}

void Event::synchronize() {
  detail::Process& p = detail::process();
  detail::Timeline& t = p.timeline;
  if (state_->recorded &&
      state_->completes_at > t.host_now) {  // blocks until Metal signals the event
    const double done = state_->completes_at + p.machine.sync_latency_seconds;
    detail::trace_span(detail::Track::Host, "event.synchronize", "wait", t.host_now,
                       done - t.host_now);
    t.host_now = done;
  }
}

// MPSEventPool::elapsedTime: commit and wait on the default stream first, then wait for the end
// event's completion time, then check both times. A time exists only for an event recorded
// with timing enabled; without one for the end event, PyTorch waits for it forever.
double Event::elapsed_time(const Event& end) const {
  detail::wait_for_device("event.elapsed_time");
  const State& start = *state_;
  const State& stop = *end.state_;
  if (!stop.recorded || !stop.enable_timing) {
    throw Error(
        "the end event was never recorded with enable_timing=True: PyTorch 2.9 would wait "
        "here forever for its completion time (the emulator stops instead)");
  }
  if (!start.recorded || !start.enable_timing)
    throw Error("Events were not created with argument 'enable_timing=True'");
  if (!(stop.completes_at > start.completes_at)) {
    throw Error("End event " + std::to_string(stop.id) + " was not recorded after start event " +
                std::to_string(start.id));
  }
  return (stop.completes_at - start.completes_at) * 1e3;
}

}  // namespace py::torch::mps
}  // namespace engine
