#include "mps/stream.h"

#include <algorithm>
#include <functional>
#include <string>

#include "data/worker_processes.h"
#include "machine/process.h"
#include "mps/compiled_region.h"
#include "trace/trace.h"

namespace engine::detail {

namespace {

// The first time an op runs, PyTorch prepares its GPU code on the host and caches it: an
// MPSGraph op builds and compiles a graph for each new set of input shapes; an op with its own
// Metal kernel loads its pipeline once, whatever the shapes. This is the cost a warm-up
// iteration pays. An op's byte count stands in for its shapes in the cache key.
void prepare_on_first_use(Process& p, const KernelCost& cost) {
  std::size_t key = std::hash<std::string_view>{}(cost.name);
  if (mps_encoding(cost) == Encoding::Graph) {
    for (const double size : {cost.bytes, cost.flops})
      key = key * 1000003 ^ std::hash<double>{}(size);
  }
  if (!p.compiled_graphs.insert(key).second) return;
  Timeline& t = p.timeline;
  trace_span(Track::Host, cost.name, "compile", t.host_now, p.machine.graph_compile_seconds);
  t.host_now += p.machine.graph_compile_seconds;
}

// One entry per change of backend (sim::backend_path).
void note_backend(Process& p, Device where) {
  const char* backend = p.fallback_depth > 0 ? "cpu fallback" : where.is_mps() ? "mps" : "cpu";
  if (p.backend_path.empty() || p.backend_path.back() != backend)
    p.backend_path.emplace_back(backend);
}

// How much of this process's GPU memory is in swap right now.
double paged_share(const Process& p) {
  if (!p.mps_allocator) return 0;
  return paged_fraction(static_cast<double>(p.mps_allocator->driver_allocated()), p.machine,
                        static_cast<double>(*p.worker_resident_bytes));
}

// The dtype a kernel's span shows: "float16", PyTorch's name without "torch.".
std::string_view dtype_shown(const KernelCost& cost) {
  return python_dtype_name(cost.dtype).substr(6);
}

// Queues `seconds` of device work named `name` behind what is already queued; a kernel's span
// names its dtype.
void enqueue(Process& p, std::string_view name, std::string_view category, double seconds,
             const KernelCost& cost) {
  Timeline& t = p.timeline;
  const double begin = std::max(t.device_free, t.host_now);  // in order, once encoded
  trace_span(Track::Device, name, category, begin, seconds, cost.bytes, cost.flops,
             category == "kernel" ? dtype_shown(cost) : std::string_view{});
  t.device_free = begin + seconds;
  t.uncommitted = true;
}

void spend_host(Process& p, std::string_view name, std::string_view category, double seconds) {
  trace_span(Track::Host, name, category, p.timeline.host_now, seconds);
  p.timeline.host_now += seconds;
}

}  // namespace

void launch(const KernelCost& cost, Device device) {
  if (count_traced_op()) return;  // Dynamo's trace: shapes only, nothing runs
  Process& p = process();
  note_backend(p, device);
  if (!device.is_mps()) {
    const double seconds = cpu_kernel_seconds(cost, p.machine);
    trace_span(Track::Host, cost.name, "cpu", p.timeline.host_now, seconds, cost.bytes, cost.flops,
               dtype_shown(cost));
    p.timeline.host_now += seconds;
    return;
  }
  refuse_mps_in_worker(cost.name);
  const bool compiled = current_compiled_graph() != nullptr;
  const double encode =
      compiled ? compiled_encode_seconds(cost, p.machine) : mps_encode_seconds(cost, p.machine);
  spend_host(p, cost.name, "dispatch", encode);
  if (compiled) compile_backward_if_needed();
  if (!compiled || cost.kind == OpKind::MatMul) prepare_on_first_use(p, cost);
  const double paged = paged_share(p);
  const double seconds = compiled ? compiled_kernel_seconds(cost, p.machine, paged)
                                  : mps_kernel_seconds(cost, p.machine, paged);
  enqueue(p, cost.name, "kernel", seconds, cost);
}

void dispatch_view(std::string_view name, Device /*device*/) {
  if (count_traced_op() || current_compiled_graph() != nullptr)
    return;  // a compiled graph has no views to dispatch
  Process& p = process();
  spend_host(p, name, "view", p.machine.cpu_op_seconds);
}

void spend_framework(std::string_view name, FrameworkWork work) {
  if (dynamo_tracing() || current_compiled_graph() != nullptr) return;
  Process& p = process();
  spend_host(p, name, "framework", framework_seconds(work, p.machine));
}

void wait_for_device(std::string_view reason) {
  Process& p = process();
  Timeline& t = p.timeline;
  if (!t.uncommitted)
    return;  // nothing was encoded since the last wait: no command buffer to commit
  const double done = std::max(t.device_free, t.host_now) + p.machine.sync_latency_seconds;
  trace_span(Track::Host, reason, "wait", t.host_now, done - t.host_now);
  t.host_now = done;
  t.uncommitted = false;
}

void copy_between(Device from, Device to, double bytes, CopySync sync) {
  note_backend(process(), to);
  if (from.is_mps() == to.is_mps()) {
    launch({.name = "aten::_to_copy", .kind = OpKind::Copy, .bytes = 2 * bytes}, to);
    return;
  }
  // Between host and GPU buffers: a blit queued behind the device's work, and the host waits
  // for it (copy_and_sync with COMMIT_AND_WAIT) unless the copy is non_blocking (COMMIT: the
  // command buffer goes to the GPU, and the host does not wait).
  Process& p = process();
  refuse_mps_in_worker("a copy between the cpu and mps");
  const std::string name = to.is_mps() ? "copy cpu -> mps" : "copy mps -> cpu";
  spend_host(p, name, "dispatch", p.machine.metal_dispatch_seconds);
  enqueue(p, name, "copy", mps_copy_seconds(bytes, p.machine, paged_share(p)),
          {.name = name, .bytes = bytes});
  if (sync == CopySync::Wait)
    wait_for_device(to.is_mps() ? "wait: copy to mps" : "wait: copy to cpu");
}

}  // namespace engine::detail
