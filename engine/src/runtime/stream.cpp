#include "runtime/stream.h"

#include <algorithm>
#include <functional>
#include <string>

#include "process.h"
#include "runtime/trace.h"

namespace engine::detail {

namespace {

// The first time an op meets a set of shapes, PyTorch builds and compiles an MPSGraph for it
// (on the host, while encoding) and caches it; later calls with the same shapes reuse it. This
// is the cost a warm-up iteration pays. Its size stands in for the shapes in the cache key.
void compile_on_first_use(Process& p, const KernelCost& cost) {
  std::size_t key = std::hash<std::string_view>{}(cost.name);
  for (const double size : {cost.bytes, cost.matmul_flops}) key = key * 1000003 ^ std::hash<double>{}(size);
  if (!p.compiled_graphs.insert(key).second) return;
  Timeline& t = p.timeline;
  trace_span(Track::Host, cost.name, "compile", t.host_now, p.machine.graph_compile_seconds);
  t.host_now += p.machine.graph_compile_seconds;
}

// One entry per change of backend (sim::backend_path).
void note_backend(Process& p, Device where) {
  const char* backend = p.fallback_depth > 0 ? "cpu fallback" : where.is_mps() ? "mps" : "cpu";
  if (p.backend_path.empty() || p.backend_path.back() != backend) p.backend_path.emplace_back(backend);
}

// How much of this process's GPU memory is in swap right now.
double paged_share(const Process& p) {
  if (!p.mps_allocator) return 0;
  return paged_fraction(static_cast<double>(p.mps_allocator->driver_allocated()), p.machine);
}

}  // namespace

void launch(const KernelCost& cost, Device device) {
  Process& p = process();
  note_backend(p, device);
  Timeline& t = p.timeline;
  if (!device.is_mps()) {
    const double seconds = cpu_kernel_seconds(cost, p.machine);
    trace_span(Track::Host, cost.name, "cpu", t.host_now, seconds, cost.bytes, cost.matmul_flops);
    t.host_now += seconds;
    return;
  }
  const double dispatch = p.machine.host_dispatch_seconds;
  trace_span(Track::Host, cost.name, "dispatch", t.host_now, dispatch);
  t.host_now += dispatch;
  compile_on_first_use(p, cost);
  const double begin = std::max(t.device_free, t.host_now);  // in order, once encoded
  const double kernel = mps_kernel_seconds(cost, p.machine, paged_share(p));
  trace_span(Track::Device, cost.name, "kernel", begin, kernel, cost.bytes, cost.matmul_flops);
  t.device_free = begin + kernel;
}

void dispatch_view(std::string_view name, Device /*device*/) {
  Process& p = process();
  Timeline& t = p.timeline;
  trace_span(Track::Host, name, "view", t.host_now, p.machine.cpu_op_seconds);
  t.host_now += p.machine.cpu_op_seconds;
}

void wait_for_device(std::string_view reason) {
  Timeline& t = process().timeline;
  if (t.device_free > t.host_now) {
    trace_span(Track::Host, reason, "wait", t.host_now, t.device_free - t.host_now);
    t.host_now = t.device_free;
  }
}

void copy_between(Device from, Device to, double bytes) {
  note_backend(process(), to);
  if (!from.is_mps() && !to.is_mps()) {
    launch({"aten::_to_copy", 0, 2 * bytes}, to);
    return;
  }
  if (from.is_mps() && to.is_mps()) {
    launch({"aten::_to_copy", 0, 2 * bytes}, to);
    return;
  }
  // Between host and GPU buffers: a blit queued behind the device's work, and the host waits
  // for it (copy_and_sync with COMMIT_AND_WAIT).
  Process& p = process();
  Timeline& t = p.timeline;
  const std::string name = to.is_mps() ? "copy cpu -> mps" : "copy mps -> cpu";
  trace_span(Track::Host, name, "dispatch", t.host_now, p.machine.host_dispatch_seconds);
  t.host_now += p.machine.host_dispatch_seconds;
  const double begin = std::max(t.device_free, t.host_now);
  const double copy = mps_copy_seconds(bytes, p.machine, paged_share(p));
  trace_span(Track::Device, name, "copy", begin, copy, bytes);
  t.device_free = begin + copy;
  wait_for_device(to.is_mps() ? "wait: copy to mps" : "wait: copy to cpu");
}

}  // namespace engine::detail
