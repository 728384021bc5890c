#include "data/worker_processes.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/data_loader.h"
#include "engine/errors.h"
#include "machine/process.h"
#include "trace/trace.h"

namespace engine::detail {
namespace {

// The state of the main process a worker's code must not disturb: it has its own clock, its
// own generator (torch's worker seeding) and its own record of where work ran.
class RunningAsWorker {
 public:
  RunningAsWorker(int worker, double start, CpuGenerator& generator)
      : p_(process()),
        generator_(generator),
        saved_now_(p_.timeline.host_now),
        saved_path_(p_.backend_path),
        saved_worker_(p_.running_worker) {
    p_.timeline.host_now = start;
    std::swap(p_.cpu_generator, generator_);
    p_.running_worker = worker;
  }
  ~RunningAsWorker() {
    p_.timeline.host_now = saved_now_;
    std::swap(p_.cpu_generator, generator_);
    p_.backend_path = std::move(saved_path_);
    p_.running_worker = saved_worker_;
  }
  RunningAsWorker(const RunningAsWorker&) = delete;
  RunningAsWorker& operator=(const RunningAsWorker&) = delete;
  double now() const { return p_.timeline.host_now; }

 private:
  Process& p_;
  CpuGenerator& generator_;
  double saved_now_;
  std::vector<std::string> saved_path_;
  int saved_worker_;
};

// [python-docs] multiprocessing: "Changed in version 3.8: On macOS, the spawn start method is
// now the default"; a forked child of a process whose Metal and Objective-C runtime have started
// is not safe to use (bugs.python.org/issue33725).
[[noreturn]] void hang_forked_after_mps() {
  throw sim::DataLoaderHang(
      "DataLoader worker 0 was started with fork() after MPS initialised in this process. On "
      "macOS a forked child cannot use the Metal and Objective-C state it inherits "
      "(torch.mps._is_in_bad_fork() is True in it), and real runs hang or crash here, at once or "
      "some batches later (pytorch/pytorch#78924). The emulator stops instead of "
      "hanging. Keep macOS's default start method, 'spawn' (leave multiprocessing_context "
      "unset), or start the workers before anything touches mps.");
}

}  // namespace

void refuse_mps_in_worker(std::string_view what) {
  const int worker = process().running_worker;
  if (worker < 0) return;
  throw Error("DataLoader worker " + std::to_string(worker) + " tried " + std::string(what) +
              " on mps: the emulator runs a dataset's code in its workers on the cpu only. Return "
              "cpu tensors from the dataset and move each batch in the training loop.");
}

WorkerProcesses::WorkerProcesses(int count, StartMethod method, double dataset_bytes) {
  Process& p = process();
  const MachineProfile& m = p.machine;
  if (method == StartMethod::Fork && m.os == OperatingSystem::MacOS && p.mps_initialised())
    hang_forked_after_mps();
  machine_bytes_ = p.worker_resident_bytes;
  // The workers and the main process share the performance cores; more of them than cores,
  // and each runs that much slower.
  slowdown_ = std::max(1.0, (count + 1) / m.performance_cores());
  for (int w = 0; w < count; ++w) {
    const double parent = parent_start_seconds(method, dataset_bytes, m);
    trace_span(Track::Host, "DataLoader: start worker " + std::to_string(w), "startup",
               p.timeline.host_now, parent);
    p.timeline.host_now += parent;
    const double start = worker_start_seconds(method, dataset_bytes, m);
    if (start > 0)
      trace_span(worker_track(w), "import torch, unpickle the dataset", "startup",
                 p.timeline.host_now, start);
    // torch's workers seed their generator with base_seed + worker_id.
    workers_.push_back(
        {p.timeline.host_now + start, CpuGenerator(p.cpu_generator.current_seed() + w)});
  }
  // Each spawned worker unpickles the dataset; a forked one makes private copies of the pages
  // it reads (input_costs.cpp's [cow]).
  base_ = worker_base_bytes(method) + static_cast<std::uint64_t>(dataset_bytes);
  set_resident(base_);
}

WorkerProcesses::~WorkerProcesses() { set_resident(0); }

void WorkerProcesses::set_resident(std::uint64_t per_worker) {
  if (const auto account = machine_bytes_.lock()) {
    *account -= resident_bytes();
    resident_ = per_worker;
    *account += resident_bytes();
  } else {
    resident_ = per_worker;
  }
}

void WorkerProcesses::hold(std::uint64_t batch_bytes, std::int64_t batches) {
  set_resident(base_ + batch_bytes * static_cast<std::uint64_t>(batches));
}

double WorkerProcesses::run(int worker, double asked, std::string_view name,
                            const std::function<void()>& load) {
  if (machine_bytes_.expired())
    throw Error("this DataLoader's workers belong to a simulated process that has ended");
  Worker& w = workers_.at(static_cast<std::size_t>(worker));
  const double start = std::max(w.free_at, asked);
  double busy = 0;
  {
    RunningAsWorker running(worker, start, w.generator);
    HostSpansMuted muted;
    load();
    busy = (running.now() - start) * slowdown_;
  }
  trace_span(worker_track(worker), name, "data", start, busy);
  w.free_at = start + busy;
  return w.free_at;
}

void load_in_main_process(std::string_view name, const std::function<void()>& load) {
  Timeline& t = process().timeline;
  const double start = t.host_now;
  {
    HostSpansMuted muted;
    load();
  }
  trace_span(Track::Host, name, "data", start, t.host_now - start);
}

}  // namespace engine::detail
