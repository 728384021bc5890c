// Python's DataLoader (engine/data_loader.h): its options and errors as
// torch/utils/data/dataloader.py checks them, and a pass over the data as
// _SingleProcessDataLoaderIter and _MultiProcessingDataLoaderIter run one: batch k asked of
// worker k % num_workers, prefetch_factor batches asked ahead of each worker, the batches taken
// in order.

#include "engine/data_loader.h"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "data/worker_processes.h"
#include "engine/errors.h"
#include "engine/mps.h"
#include "engine/python_format.h"
#include "engine/sim.h"
#include "machine/process.h"
#include "mps/stream.h"
#include "tensor/tensor_impl.h"
#include "trace/trace.h"

namespace engine::py::torch::utils::data {
namespace {

using detail::StartMethod;

// torch.multiprocessing.get_all_start_methods(): the platform's default first.
std::vector<std::string> start_methods(const MachineProfile& m) {
  if (m.os == OperatingSystem::MacOS) return {"spawn", "fork", "forkserver"};
  return {"fork", "spawn", "forkserver"};
}

std::string python_list(const std::vector<std::string>& items) {
  std::string text = "[";
  for (const std::string& item : items) text += (text.size() > 1 ? ", '" : "'") + item + "'";
  return text + "]";
}

StartMethod start_method(const DataLoaderOptions& o, const MachineProfile& m) {
  const std::string name = o.multiprocessing_context.value_or(start_methods(m).front());
  if (name == "fork") return StartMethod::Fork;
  return name == "spawn" ? StartMethod::Spawn : StartMethod::Forkserver;
}

// DataLoader.__init__'s checks, in its order, with its messages.
void check(const DataLoaderOptions& o, const MachineProfile& m) {
  if (o.num_workers < 0) {
    throw ValueError(
        "num_workers option should be non-negative; use num_workers=0 to disable "
        "multiprocessing.");
  }
  if (o.timeout < 0) throw ValueError("timeout option should be non-negative");
  if (o.num_workers == 0 && o.prefetch_factor) {
    throw ValueError(
        "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
        "to enable multiprocessing, otherwise set prefetch_factor to None.");
  }
  if (o.prefetch_factor && *o.prefetch_factor < 0)
    throw ValueError("prefetch_factor option should be non-negative");
  if (o.persistent_workers && o.num_workers == 0)
    throw ValueError("persistent_workers option needs num_workers > 0");
  if (o.multiprocessing_context) {
    if (o.num_workers == 0) {
      throw ValueError(
          "multiprocessing_context can only be used with multi-process loading (num_workers > "
          "0), but got num_workers=0");
    }
    const std::vector<std::string> valid = start_methods(m);
    if (std::find(valid.begin(), valid.end(), *o.multiprocessing_context) == valid.end()) {
      throw ValueError("multiprocessing_context option should specify a valid start method in " +
                       python_list(valid) + ", but got multiprocessing_context='" +
                       *o.multiprocessing_context + "'");
    }
  }
  if (o.batch_size <= 0) {  // BatchSampler's
    throw ValueError("batch_size should be a positive integer value, but got batch_size=" +
                     std::to_string(o.batch_size));
  }
}

// check_worker_number_rationality: more workers than os.cpu_count() (macOS has no
// os.sched_getaffinity, so its message says the cpuset was not taken into account).
void warn_about_worker_count(const DataLoaderOptions& o, const MachineProfile& m) {
  if (o.num_workers <= m.cpu_cores) return;
  std::cerr << "UserWarning: This DataLoader will create " << o.num_workers
            << " worker processes in total. Our suggested max number of worker in current system "
               "is "
            << m.cpu_cores
            << (m.os == OperatingSystem::MacOS ? " (`cpuset` is not taken into account)" : "")
            << ", which is smaller than what this DataLoader is going to create. Please be aware "
               "that excessive worker creation might get DataLoader running slow or even freeze, "
               "lower the worker number to avoid potential slowness/freeze if necessary.\n";
}

// _BaseDataLoaderIter.__init__: pinned memory needs an accelerator, and MPS's is refused.
void warn_about_pin_memory(const DataLoaderOptions& o) {
  if (!o.pin_memory) return;
  if (!engine::mps::is_available()) {
    std::cerr << "UserWarning: 'pin_memory' argument is set as true but no accelerator is found, "
                 "then device pinned memory won't be used.\n";
  } else {
    std::cerr << "UserWarning: 'pin_memory' argument is set as true but not supported on MPS "
                 "now, device pinned memory won't be used.\n";
  }
}

// default_collate's torch.stack of one field of the samples, on the cpu of whoever loads.
Tensor stack(const std::vector<Tensor>& items) {
  const Tensor& first = items.front();
  std::vector<std::int64_t> sizes{static_cast<std::int64_t>(items.size())};
  for (const std::int64_t s : first.sizes()) sizes.push_back(s);
  bool values = !sim::shape_only_mode();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].sizes() != first.sizes()) {
      throw Error("stack expects each tensor to be equal size, but got " +
                  detail::sizes_string(first.sizes()) + " at entry 0 and " +
                  detail::sizes_string(items[i].sizes()) + " at entry " + std::to_string(i));
    }
    values = values && items[i].impl().has_values();
  }
  Tensor out = detail::allocate(sizes, first.scalar_type(), Device(DeviceType::CPU), values);
  if (values) {
    detail::visit_dtype(first.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      T* to = out.impl().data<T>();
      for (const Tensor& item : items) {
        std::copy_n(item.impl().data<T>(), item.numel(), to);
        to += item.numel();
      }
    });
  }
  detail::launch({.name = "aten::stack",
                  .kind = detail::OpKind::Copy,
                  .bytes = 2 * detail::nbytes(out),
                  .elements = static_cast<double>(out.numel())},
                 Device(DeviceType::CPU));
  return out;
}

}  // namespace

// What stays with the loader between passes: the dataset, the options as resolved, and the
// workers when they persist.
struct DataLoader::State {
  DatasetView dataset;
  StartMethod method = StartMethod::Spawn;
  std::int64_t prefetch = 0;  // batches asked ahead of each worker
  std::shared_ptr<detail::WorkerProcesses> persistent;
};

// One pass over the data.
struct DataLoader::Iterator::Pass {
  DataLoaderOptions options;
  std::shared_ptr<State> loader;
  std::vector<std::vector<std::size_t>> batches;  // the sampler's indices, a batch at a time
  std::shared_ptr<detail::WorkerProcesses> workers;
  std::map<std::size_t, std::pair<double, Batch>> loaded;  // batch -> (ready at, the batch)
  std::size_t next = 0;                                    // the batch next() returns
  std::size_t asked = 0;                                   // batches asked of the workers
  Batch current;
  bool finished = false;

  // A batch as a fetcher makes it: each sample from the dataset, then default_collate.
  Batch load(std::size_t k) {
    std::vector<Tensor> data, targets;
    for (const std::size_t index : batches[k]) {
      detail::process().timeline.host_now += detail::sample_overhead_seconds(sim::machine());
      Batch sample = loader->dataset.get(index);
      data.push_back(std::move(sample.data));
      targets.push_back(std::move(sample.target));
    }
    return Batch(stack(data), stack(targets));
  }

  // _try_put_index: batch `asked` to the next worker in turn.
  void ask() {
    const std::size_t k = asked++;
    Batch batch;
    const double ready =
        workers->run(static_cast<int>(k % static_cast<std::size_t>(workers->count())),
                     detail::process().timeline.host_now, "batch " + std::to_string(k),
                     [&] { batch = load(k); });
    if (k == 0) {
      workers->hold(
          static_cast<std::uint64_t>(detail::nbytes(batch.data) + detail::nbytes(batch.target)),
          loader->prefetch);
    }
    loaded.emplace(k, std::make_pair(ready, std::move(batch)));
  }

  void advance() {
    if (next == batches.size()) {
      finished = true;
      workers.reset();  // _shutdown_workers, unless the loader keeps them
      return;
    }
    if (!workers) {
      detail::load_in_main_process("DataLoader: batch " + std::to_string(next),
                                   [&] { current = load(next); });
      ++next;
      return;
    }
    auto it = loaded.find(next);
    detail::Timeline& t = detail::process().timeline;
    if (it->second.first > t.host_now) {
      const double wait = it->second.first - t.host_now;
      if (options.timeout > 0 && wait > options.timeout)
        throw Error("DataLoader timed out after " + py::str(options.timeout) + " seconds");
      detail::trace_span(detail::Track::Host, "wait: DataLoader", "wait", t.host_now, wait);
      t.host_now += wait;
    }
    const double receive = 2 * detail::batch_receive_seconds(sim::machine());  // data, target
    detail::trace_span(detail::Track::Host, "DataLoader: receive batch", "data", t.host_now,
                       receive);
    t.host_now += receive;
    current = std::move(it->second.second);
    loaded.erase(it);
    if (asked < batches.size()) ask();
    ++next;
  }
};

DataLoader::DataLoader(DatasetView dataset, DataLoaderOptions options)
    : options_(std::move(options)), state_(std::make_shared<State>()) {
  const MachineProfile& m = sim::machine();
  check(options_, m);
  state_->dataset = std::move(dataset);
  state_->method = start_method(options_, m);
  state_->prefetch = options_.num_workers > 0 ? options_.prefetch_factor.value_or(2) : 0;
  warn_about_worker_count(options_, m);
}

DataLoader::~DataLoader() = default;

std::size_t DataLoader::size() const {
  const auto n = state_->dataset.size;
  const auto b = static_cast<std::size_t>(options_.batch_size);
  return options_.drop_last ? n / b : (n + b - 1) / b;
}

DataLoader::Iterator DataLoader::begin() {
  warn_about_pin_memory(options_);
  auto pass = std::make_shared<Iterator::Pass>();
  pass->options = options_;
  pass->loader = state_;
  const std::size_t n = state_->dataset.size;
  std::vector<std::size_t> order;
  if (options_.shuffle) {
    engine::data::samplers::RandomSampler sampler(static_cast<std::int64_t>(n));
    order = *sampler.next(n);
  } else {
    engine::data::samplers::SequentialSampler sampler(n);
    order = sampler.next(n).value_or(std::vector<std::size_t>{});
  }
  const auto b = static_cast<std::size_t>(options_.batch_size);
  for (std::size_t start = 0; start < order.size(); start += b) {
    if (options_.drop_last && start + b > order.size()) break;
    pass->batches.emplace_back(
        order.begin() + static_cast<std::ptrdiff_t>(start),
        order.begin() + static_cast<std::ptrdiff_t>(std::min(start + b, order.size())));
  }
  if (options_.num_workers > 0) {
    if (state_->prefetch == 0) {
      throw sim::DataLoaderHang(
          "prefetch_factor=0 asks no worker for a batch ahead, so the first next() waits for a "
          "batch no worker was asked for: real runs hang here. Leave prefetch_factor at its "
          "default, 2.");
    }
    auto& workers = options_.persistent_workers ? state_->persistent : pass->workers;
    if (!workers) {
      workers = std::make_shared<detail::WorkerProcesses>(
          static_cast<int>(options_.num_workers), state_->method,
          static_cast<double>(state_->dataset.in_memory_bytes));
    }
    pass->workers = workers;
    const auto ahead = static_cast<std::size_t>(state_->prefetch * options_.num_workers);
    while (pass->asked < std::min(ahead, pass->batches.size())) pass->ask();
  }
  pass->advance();
  return Iterator(std::move(pass));
}

const Batch& DataLoader::Iterator::operator*() const { return pass_->current; }

DataLoader::Iterator& DataLoader::Iterator::operator++() {
  pass_->advance();
  return *this;
}

bool DataLoader::Iterator::done() const { return pass_ == nullptr || pass_->finished; }

}  // namespace engine::py::torch::utils::data
