// The input pipeline: torch::data's samplers, Python's DataLoader with its options, errors and
// worker processes, sim::data's datasets and what their work costs.

#include "engine/data_loader.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "data/input_costs.h"
#include "engine/engine.h"
#include "test_support.h"

namespace {

namespace data = engine::py::torch::utils::data;
namespace sim = engine::sim;
using engine::Tensor;

// A dataset of the learner's own: sample i is the value i, and costs `seconds` of cpu time.
class Numbers : public engine::data::datasets::Dataset<Numbers> {
 public:
  Numbers(std::size_t count, double seconds) : count_(count), seconds_(seconds) {}
  engine::data::Example<> get(std::size_t index) override {
    sim::spend_cpu("load", seconds_);
    return {engine::full({2}, static_cast<double>(index)),
            engine::full({}, static_cast<double>(index))};
  }
  std::optional<std::size_t> size() const override { return count_; }

 private:
  std::size_t count_;
  double seconds_;
};

std::string error_of(const data::DataLoaderOptions& options) {
  return test_support::error_of([&] { data::DataLoader loader(Numbers(10, 0), options); });
}

// Seconds of the host clock that `body` takes.
template <typename Body>
double host_seconds(const Body& body) {
  const double start = engine::py::time::perf_counter();
  body();
  return engine::py::time::perf_counter() - start;
}

}  // namespace

TEST_CASE("DataLoader refuses what Python's refuses, with its messages") {
  sim::use_machine("m3-max-64gb");
  CHECK(error_of({.num_workers = -1}) ==
        "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.");
  CHECK(error_of({.timeout = -1}) == "timeout option should be non-negative");
  CHECK(error_of({.prefetch_factor = 2}) ==
        "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to "
        "enable multiprocessing, otherwise set prefetch_factor to None.");
  CHECK(error_of({.num_workers = 2, .prefetch_factor = -1}) ==
        "prefetch_factor option should be non-negative");
  CHECK(error_of({.persistent_workers = true}) ==
        "persistent_workers option needs num_workers > 0");
  CHECK(error_of({.multiprocessing_context = "fork"}) ==
        "multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
        "but got num_workers=0");
  CHECK(error_of({.num_workers = 2, .multiprocessing_context = "threads"}) ==
        "multiprocessing_context option should specify a valid start method in ['spawn', 'fork', "
        "'forkserver'], but got multiprocessing_context='threads'");
  CHECK(error_of({.batch_size = 0}) ==
        "batch_size should be a positive integer value, but got batch_size=0");
  sim::use_machine("linux-x86_64");  // Linux lists its default, fork, first
  CHECK(error_of({.num_workers = 2, .multiprocessing_context = "threads"})
            .find("['fork', 'spawn', 'forkserver']") != std::string::npos);
}

TEST_CASE("a pass yields every sample once, in order or shuffled, and len() counts its batches") {
  sim::use_machine("m3-max-64gb");
  for (const bool drop_last : {false, true}) {
    for (const std::int64_t workers : {0, 3}) {
      CAPTURE(drop_last);
      CAPTURE(workers);
      data::DataLoader loader(Numbers(10, 1e-3),
                              {.batch_size = 4, .num_workers = workers, .drop_last = drop_last});
      CHECK(loader.size() == (drop_last ? 2U : 3U));
      std::vector<float> seen;
      for (const auto& batch : loader) {
        CHECK(batch.data.size(1) == 2);
        const auto targets = batch.target.to_vector<float>();
        seen.insert(seen.end(), targets.begin(), targets.end());
      }
      const std::vector<float> expected = drop_last
                                              ? std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}
                                              : std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
      CHECK(seen == expected);
    }
  }
  engine::manual_seed(0);
  data::DataLoader shuffled(Numbers(10, 0), {.batch_size = 3, .shuffle = true, .num_workers = 2});
  std::vector<float> first, second;
  for (const auto& batch : shuffled) {
    for (float v : batch.target.to_vector<float>()) first.push_back(v);
  }
  for (const auto& batch : shuffled) {
    for (float v : batch.target.to_vector<float>()) second.push_back(v);
  }
  CHECK(std::set<float>(first.begin(), first.end()).size() == 10);
  CHECK(first != second);  // each pass draws a new order
  std::sort(first.begin(), first.end());
  CHECK(first == std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
}

TEST_CASE(
    "without workers the host loads each batch, and with them it waits only for what is not ready") {
  sim::use_machine("m3-max-64gb");
  const double sample = 10e-3;
  const double overhead = engine::detail::sample_overhead_seconds(sim::machine());
  data::DataLoader in_process(Numbers(64, sample), {.batch_size = 8});
  double per_batch = 0;
  {
    auto it = in_process.begin();
    per_batch = host_seconds([&] { ++it; });
  }
  CHECK(per_batch > 8 * (sample + overhead));  // eight samples and their stacking
  CHECK(per_batch < 8 * (sample + overhead) + 1e-3);

  // Four workers, and a loop whose own work per step is shorter than one batch: after the
  // workers start, a batch is ready every quarter of a batch's time.
  data::DataLoader loader(Numbers(256, sample), {.batch_size = 8, .num_workers = 4});
  sim::TimelineRecording recording;
  auto it = loader.begin();
  for (int step = 0; step < 10; ++step) ++it;  // past the start
  const double steady = host_seconds([&] {
    for (int step = 0; step < 8; ++step) {
      engine::py::time::sleep(1e-3);
      ++it;
    }
  });
  CHECK(steady / 8 == doctest::Approx(per_batch / 4).epsilon(0.05));
  std::set<std::string> tracks;
  double waited = 0;
  for (const sim::Span& s : recording.spans()) {
    tracks.insert(s.track);
    if (s.name == "wait: DataLoader") waited += s.duration;
  }
  CHECK(tracks == std::set<std::string>{"host", "worker 0", "worker 1", "worker 2", "worker 3"});
  CHECK(waited > 0);
}

TEST_CASE("a spawned worker imports torch before its first batch, every epoch unless persistent") {
  sim::use_machine("m1-8gb");
  // [import] of input_costs.cpp: a second at the M1's clock
  const double start =
      engine::detail::worker_start_seconds(engine::detail::StartMethod::Spawn, 0, sim::machine());
  CHECK(start == doctest::Approx(1.0));
  for (const bool persistent : {false, true}) {
    CAPTURE(persistent);
    data::DataLoader loader(Numbers(16, 1e-3),
                            {.batch_size = 4, .num_workers = 2, .persistent_workers = persistent});
    const double first_epoch = host_seconds([&] {
      for (const auto& batch : loader) static_cast<void>(batch);
    });
    const double second_epoch = host_seconds([&] {
      for (const auto& batch : loader) static_cast<void>(batch);
    });
    CHECK(first_epoch > start);
    CHECK((second_epoch > start) == !persistent);
  }
}

TEST_CASE("workers hold memory of their own in the machine's unified memory while they live") {
  sim::use_machine("m1-8gb");
  CHECK(sim::memory_use().dataloader_workers == 0);
  const sim::data::InMemoryImages cifar({.images = 50000, .side = 32});
  const std::uint64_t array = cifar.in_memory_bytes();
  CHECK(array == 50000 * (32 * 32 * 3 + 8));
  {
    data::DataLoader loader(cifar, {.batch_size = 128, .num_workers = 4});
    auto it = loader.begin();
    const std::uint64_t batch = 128 * (3 * 32 * 32 * 4 + 8);
    const std::uint64_t spawned =
        engine::detail::worker_base_bytes(engine::detail::StartMethod::Spawn);
    CHECK(spawned == 429496730);  // [spawn] 0.4 GiB
    CHECK(sim::memory_use().dataloader_workers == 4 * (spawned + array + 2 * batch));
  }
  CHECK(sim::memory_use().dataloader_workers == 0);  // the pass ended with the iterator
  // Sixteen spawned workers on the 8 GB M1 beside its other applications: macOS swaps.
  const test_support::CaptureStderr more_workers_than_cores;
  data::DataLoader many(cifar, {.batch_size = 128, .num_workers = 16});
  auto it = many.begin();
  CHECK(sim::memory_use().swaps());
  CHECK(sim::memory_use().in_use() ==
        sim::memory_use().dataloader_workers + sim::memory_use().other_apps);
}

TEST_CASE("workers swapping slow the GPU: their memory counts against the unified memory") {
  sim::use_machine("m1-8gb");
  const auto step = [] {
    const sim::ShapeOnlyGuard shape_only;
    const auto x = engine::randn({4096, 4096}, engine::Device("mps"));
    engine::mps::synchronize();
    return host_seconds([&] {
      auto y = engine::matmul(x, x);
      engine::mps::synchronize();
    });
  };
  const double alone = step();
  const test_support::CaptureStderr more_workers_than_cores;
  data::DataLoader many(sim::data::InMemoryImages({.images = 50000, .side = 32}),
                        {.batch_size = 128, .num_workers = 16});
  auto it = many.begin();
  CHECK(step() > alone);
}

TEST_CASE("fork() after MPS initialised is stopped as the hang it would be on a Mac") {
  sim::use_machine("m3-max-64gb");
  data::DataLoader before(Numbers(8, 0), {.num_workers = 2, .multiprocessing_context = "fork"});
  CHECK_NOTHROW(before.begin());  // nothing has touched MPS yet: fork is safe
  CHECK(engine::mps::is_available());
  data::DataLoader after(Numbers(8, 0), {.num_workers = 2, .multiprocessing_context = "fork"});
  CHECK_THROWS_WITH_AS(after.begin(), doctest::Contains("torch.mps._is_in_bad_fork() is True"),
                       sim::DataLoaderHang);
  data::DataLoader spawned(Numbers(8, 0), {.num_workers = 2});
  CHECK_NOTHROW(spawned.begin());
  sim::use_machine("linux-x86_64");  // no MPS: Linux's default fork is fine
  data::DataLoader linux_fork(Numbers(8, 0), {.num_workers = 2});
  CHECK_NOTHROW(linux_fork.begin());
}

TEST_CASE("prefetch_factor=0 would hang, and the emulator says so") {
  sim::use_machine("m3-max-64gb");
  data::DataLoader loader(Numbers(8, 0), {.num_workers = 2, .prefetch_factor = 0});
  CHECK_THROWS_WITH_AS(loader.begin(), doctest::Contains("real runs hang here"),
                       sim::DataLoaderHang);
}

TEST_CASE("a batch later than the timeout raises Python's error") {
  sim::use_machine("m3-max-64gb");
  data::DataLoader loader(Numbers(8, 1.0), {.batch_size = 4, .num_workers = 1, .timeout = 2});
  CHECK(test_support::error_of([&] { loader.begin(); }) ==
        "DataLoader timed out after 2.0 seconds");
}

TEST_CASE("pin_memory and too many workers are warned about as PyTorch warns") {
  sim::use_machine("m3-max-64gb");
  test_support::CaptureStderr captured;
  data::DataLoader loader(Numbers(8, 0), {.num_workers = 20, .pin_memory = true});
  auto it = loader.begin();
  CHECK(captured.text().find(
            "UserWarning: This DataLoader will create 20 worker processes in total. Our suggested "
            "max number of worker in current system is 16 (`cpuset` is not taken into account), "
            "which is smaller than what this DataLoader is going to create.") != std::string::npos);
  CHECK(captured.text().find("UserWarning: 'pin_memory' argument is set as true but not supported "
                             "on MPS now, device pinned memory won't be used.") !=
        std::string::npos);
}

TEST_CASE("a dataset's mps work inside a worker is refused with what to do instead") {
  sim::use_machine("m3-max-64gb");
  class OnMps : public engine::data::datasets::Dataset<OnMps> {
   public:
    engine::data::Example<> get(std::size_t) override {
      return {engine::ones({2}, engine::Device("mps")), engine::zeros({})};
    }
    std::optional<std::size_t> size() const override { return 4; }
  };
  data::DataLoader loader(OnMps(), {.num_workers = 1});
  CHECK(
      test_support::error_of([&] { loader.begin(); })
          .find(
              "DataLoader worker 0 tried aten::ones on mps: the emulator runs a dataset's code in its "
              "workers on the cpu only") != std::string::npos);
}

TEST_CASE("sim::data's datasets cost what Pillow, torchvision and tiktoken cost on an Apple core") {
  sim::use_machine("m3-max-64gb");  // 4.05 GHz performance cores
  const double hz = 4.05e9;
  sim::data::JpegImageFolder jpegs({.augment = false});
  const double decode_resize_convert = host_seconds([&] { jpegs.get(0); });
  CHECK(decode_resize_convert ==
        doctest::Approx((500 * 400 * 29 + 224 * 224 * (20.5 + 22.1)) / hz));
  sim::data::TokenizedTexts texts({.tokens = 512});
  CHECK(host_seconds([&] { texts.get(0); }) == doctest::Approx(512 * 1090 / hz));
  const sim::ShapeOnlyGuard shape_only;
  const auto sample = jpegs.get(3);
  CHECK(sim::is_shape_only(sample.data));
  CHECK(sample.data.sizes().vec() == std::vector<std::int64_t>{3, 224, 224});
}

TEST_CASE("a non_blocking copy to mps is queued, and the host goes on") {
  sim::use_machine("m3-max-64gb");
  const sim::ShapeOnlyGuard shape_only;
  const auto batch = engine::randn({256, 3, 224, 224});
  const auto copy_time = [&](bool non_blocking) {
    engine::mps::synchronize();
    return host_seconds([&] { batch.to(engine::Device("mps"), non_blocking); });
  };
  const double blocking = copy_time(false);
  const double queued = copy_time(true);
  CHECK(queued < blocking / 10);
  CHECK(queued == doctest::Approx(sim::machine().metal_dispatch_seconds));
}
