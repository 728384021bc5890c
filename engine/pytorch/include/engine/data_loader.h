#pragma once
// Python's torch.utils.data.DataLoader (torch/utils/data/dataloader.py), which LibTorch does not
// have in this form: py::torch::utils::data::DataLoader. It batches a map-style dataset
// (engine/data.h) and, with num_workers > 0, loads the batches in worker processes while the
// training loop runs:
//   - each worker is a simulated process of its own: it starts (with 'spawn', macOS's default
//     since Python 3.8, a fresh interpreter that imports torch and unpickles the dataset), holds
//     its own resident memory in the machine's unified memory (sim::memory_use()), and runs on
//     its own clock, drawn as its own track ("worker 0") on the timelines;
//   - batch k goes to worker k % num_workers; each worker keeps prefetch_factor batches asked of
//     it ahead, and the loop takes the batches in order, waiting ("wait: DataLoader") for one
//     that is not ready: the step is input-bound when that wait is long;
//   - without persistent_workers, the workers end with each pass over the data and start again
//     with the next (iter(loader) once per epoch).
// The batch stays on the cpu: move it with .to(device, non_blocking). pin_memory is refused on
// MPS with PyTorch's warning, as PyTorch refuses it. Options, defaults and error messages are
// PyTorch's (torch/utils/data/dataloader.py); sampler, batch_sampler, collate_fn,
// worker_init_fn and generator are not modelled: batches are the default collate's, stacked
// data and targets. Simplifications: the workers and the main process share the machine's
// performance cores evenly (efficiency cores do no work); the dataset's own cpu work inside a
// batch shows as one span per batch; a dataset that does MPS work inside a worker is refused.
// Where the costs come from: engine/pytorch/src/data/input_costs.cpp.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/data.h"

namespace engine {

namespace sim {

// A run that real PyTorch would leave hanging: the emulator stops it and says why, instead of
// hanging itself. Not an engine::Error: a hang is nothing Python can catch.
class DataLoaderHang : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace sim

namespace py::torch::utils::data {

using Batch = engine::data::Example<>;

// The keyword arguments of DataLoader(dataset, ...), in Python's order, with Python's defaults.
struct DataLoaderOptions {
  std::int64_t batch_size = 1;
  bool shuffle = false;
  std::int64_t num_workers = 0;
  bool pin_memory = false;
  bool drop_last = false;
  double timeout = 0;  // seconds to wait for a batch; 0 waits forever
  // "spawn", "fork" or "forkserver"; the platform's default without one: spawn on macOS, fork
  // on Linux (Python 3.11).
  std::optional<std::string> multiprocessing_context = std::nullopt;
  std::optional<std::int64_t> prefetch_factor = std::nullopt;  // 2 once there are workers
  bool persistent_workers = false;
};

// A dataset as the loader sees it: any torch::data::datasets::Dataset<Self> of Example<>.
struct DatasetView {
  std::function<Batch(std::size_t)> get;
  std::size_t size = 0;
  // Bytes of Python objects a spawned worker unpickles a copy of (sim::data's datasets know
  // theirs; a dataset of the learner's own counts none).
  std::uint64_t in_memory_bytes = 0;
};

class DataLoader {
 public:
  // DataLoader(dataset, batch_size=..., ...): the loader keeps the dataset.
  template <typename Dataset>
  explicit DataLoader(Dataset dataset, DataLoaderOptions options = {})
      : DataLoader(view(std::make_shared<Dataset>(std::move(dataset))), std::move(options)) {}
  DataLoader(DatasetView dataset, DataLoaderOptions options);
  ~DataLoader();
  DataLoader(const DataLoader&) = delete;
  DataLoader& operator=(const DataLoader&) = delete;

  // One pass over the data, as iter(loader) and next() run it: begin() starts the workers and
  // has the first batch, each ++ the next one.
  class Iterator {
   public:
    const Batch& operator*() const;
    const Batch* operator->() const { return &**this; }
    Iterator& operator++();
    bool operator==(const Iterator& other) const { return done() == other.done(); }

   private:
    friend class DataLoader;
    struct Pass;
    explicit Iterator(std::shared_ptr<Pass> pass) : pass_(std::move(pass)) {}
    bool done() const;
    std::shared_ptr<Pass> pass_;
  };
  Iterator begin();
  Iterator end() { return Iterator(nullptr); }

  // len(loader): the number of batches in one pass.
  std::size_t size() const;
  const DataLoaderOptions& options() const noexcept { return options_; }

 private:
  template <typename Dataset>
  static DatasetView view(std::shared_ptr<Dataset> dataset) {
    DatasetView v{.get = [dataset](std::size_t i) { return dataset->get(i); },
                  .size = dataset->size().value_or(0)};
    if constexpr (requires { dataset->in_memory_bytes(); })
      v.in_memory_bytes = dataset->in_memory_bytes();
    return v;
  }

  struct State;
  DataLoaderOptions options_;
  std::shared_ptr<State> state_;
};

}  // namespace py::torch::utils::data
}  // namespace engine
