#pragma once
// Internal: the worker processes of a DataLoader (torch/utils/data/_utils/worker.py), simulated
// beside the process that starts them. Each has its own clock and track, its own generator and
// its own resident memory in the machine's unified memory (Process::worker_resident_bytes);
// they share the machine's performance cores with the main process. A batch a worker loads
// runs the dataset's code with the worker's clock standing in for the host's, so whatever that
// code costs (engine ops on the cpu, sim::spend_cpu) is the worker's time.

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "data/input_costs.h"
#include "random/cpu_generator.h"

namespace engine::detail {

// The engine's refusal of mps work while a DataLoader worker runs the dataset (stream.cpp asks
// before every mps operation): a worker has no MPS context of the main process's.
void refuse_mps_in_worker(std::string_view what);

class WorkerProcesses {
 public:
  // Starts `count` workers from the current process at its host's present time: the main
  // process spends its part of each start (a "startup" span on the host), each worker the rest
  // (a "startup" span on its track). Throws sim::DataLoaderHang for fork() on macOS once MPS has
  // initialised.
  WorkerProcesses(int count, StartMethod method, double dataset_bytes);
  ~WorkerProcesses();  // the workers end: their memory goes back to the machine
  WorkerProcesses(const WorkerProcesses&) = delete;
  WorkerProcesses& operator=(const WorkerProcesses&) = delete;

  int count() const noexcept { return static_cast<int>(workers_.size()); }
  // Runs `load` as worker `worker`, starting when the worker is free and no earlier than
  // `asked`; records it as one "data" span named `name` on the worker's track. Returns when it
  // finished, on the main process's clock.
  double run(int worker, double asked, std::string_view name, const std::function<void()>& load);
  // Each worker holds up to `batches` loaded batches of `batch_bytes` for the main process.
  void hold(std::uint64_t batch_bytes, std::int64_t batches);
  std::uint64_t resident_bytes() const noexcept { return resident_ * workers_.size(); }

 private:
  struct Worker {
    double free_at;
    CpuGenerator generator;
  };
  void set_resident(std::uint64_t per_worker);

  std::vector<Worker> workers_;
  std::uint64_t base_;                          // per worker, before the batches it holds
  std::uint64_t resident_ = 0;                  // per worker
  double slowdown_;                             // more processes than performance cores
  std::weak_ptr<std::uint64_t> machine_bytes_;  // the starting process's account of them
};

// The main process loading a batch itself (num_workers=0): `load` runs on the host's clock, and
// shows as one "data" span named `name`.
void load_in_main_process(std::string_view name, const std::function<void()>& load);

}  // namespace engine::detail
