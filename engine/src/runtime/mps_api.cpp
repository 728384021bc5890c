// torch.mps.synchronize and torch.mps.Event on the emulated stream (torch/mps/event.py,
// aten/src/ATen/mps/MPSEvent.mm): events are markers on the device timeline.

#include <algorithm>
#include <string>

#include "engine/backends/mps.h"
#include "engine/errors.h"
#include "engine/mps.h"
#include "process.h"
#include "runtime/stream.h"
#include "runtime/trace.h"

namespace engine::mps {
namespace {

// What every torch.mps hook raises in a build without MPS (MPSHooksInterface).
void require_mps_build(const char* hook) {
  if (!backends::mps::is_built()) {
    throw Error(std::string("Cannot execute ") + hook + "() without MPS backend.");
  }
}

}  // namespace

void synchronize() {
  require_mps_build("deviceSynchronize");
  detail::wait_for_device("torch.mps.synchronize");
}

Event::Event(bool enable_timing) : enable_timing_(enable_timing) {
  require_mps_build("acquireEvent");
  id_ = detail::process().next_event_id++;
}

void Event::record() {
  detail::Process& p = detail::process();
  detail::Timeline& t = p.timeline;
  t.host_now += p.machine.metal_dispatch_seconds;  // encode the signal and commit
  completes_at_ = std::max(t.device_free, t.host_now);
  recorded_ = true;
  detail::trace_span(detail::Track::Device, "event " + std::to_string(id_), "event",
                     completes_at_, 0);
}

void Event::wait() { detail::process().timeline.host_now += detail::process().machine.cpu_op_seconds; }

bool Event::query() const {
  return recorded_ && completes_at_ <= detail::process().timeline.host_now;
}

void Event::synchronize() {
  detail::Process& p = detail::process();
  detail::Timeline& t = p.timeline;
  if (recorded_ && completes_at_ > t.host_now) {  // blocks until Metal signals the event
    const double done = completes_at_ + p.machine.sync_latency_seconds;
    detail::trace_span(detail::Track::Host, "event.synchronize", "wait", t.host_now, done - t.host_now);
    t.host_now = done;
  }
}

// MPSEventPool::elapsedTime: commit and wait on the default stream first, then wait for the end
// event's completion time, then check both times. A time exists only for an event recorded
// with timing enabled; without one for the end event, PyTorch waits for it forever.
double Event::elapsed_time(const Event& end) const {
  detail::wait_for_device("event.elapsed_time");
  if (!end.recorded_ || !end.enable_timing_) {
    throw Error("the end event was never recorded with enable_timing=True: PyTorch 2.9 would wait "
                "here forever for its completion time (the emulator stops instead)");
  }
  if (!recorded_ || !enable_timing_) throw Error("Events were not created with argument 'enable_timing=True'");
  if (!(end.completes_at_ > completes_at_)) {
    throw Error("End event " + std::to_string(end.id_) + " was not recorded after start event " +
                std::to_string(id_));
  }
  return (end.completes_at_ - completes_at_) * 1e3;
}

}  // namespace engine::mps
