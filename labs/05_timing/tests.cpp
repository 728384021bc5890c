// Lab 5 · Timing: the tests. Your timer is compared with the device's own clock (mps::Event, as
// lesson 5 uses it) for the same work, and with sleeps of known length; your loop is checked
// for whether the GPU is still busy when it returns.

#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "05_timing/lab.h"
#include "harness/check.h"

namespace {

const harness::LessonCell kMpsTiming("05_timing_and_synchronization/05_1_timing_gpu_work", "mps_timing");
const harness::LessonCell kWarmUp("05_timing_and_synchronization/05_1_timing_gpu_work", "warm_up");
const harness::LessonCell kNaiveVsSynchronized("05_timing_and_synchronization/05_1_timing_gpu_work", "naive_vs_synchronized");
const harness::LessonCell kEventTiming("05_timing_and_synchronization/05_1_timing_gpu_work", "event_timing");
const harness::LessonCell kHiddenSyncPoint("05_timing_and_synchronization/05_2_sync_points_in_a_training_loop", "hidden_sync_point");
const harness::LessonCell kLoggingBoundary("05_timing_and_synchronization/05_2_sync_points_in_a_training_loop", "logging_boundary");

// Milliseconds one warm run of `work` takes as an honest timer sees it: after a run that
// builds its graphs, between two synchronizations (so the wait's round trip is included).
double warm_synchronized_ms(const std::function<void()>& work) {
  work();
  torch::mps::synchronize();
  const double start = py::time::perf_counter();
  work();
  torch::mps::synchronize();
  return (py::time::perf_counter() - start) * 1e3;
}

// Milliseconds one run of `work` takes on the device's clock: two events around it.
double device_ms(const std::function<void()>& work) {
  py::torch::mps::Event start(true), end(true);
  start.record();
  work();
  end.record();
  return start.elapsed_time(end);
}

// Whether `error` is about MPS ("Cannot execute deviceSynchronize() without MPS backend.").
bool mentions_mps(const torch::Error& error) {
  std::string what = error.what();
  for (char& c : what) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return what.find("mps") != std::string::npos;
}

// "5, 10", or "none"
std::string listed(const std::vector<int>& steps) {
  std::string text;
  for (const int step : steps) text += (text.empty() ? "" : ", ") + std::to_string(step);
  return steps.empty() ? "none" : text;
}

}  // namespace

TEST_CASE("the timer gives milliseconds per run, with or without MPS") {
  for (const char* machine : {"linux-x86_64", "m3-max-64gb"}) {
    sim::use_machine(machine);
    INFO("on " << std::string(machine));
    double ms = 0;
    try {
      ms = lab::time_gpu_ms([] { py::time::sleep(0.002); }, 2, 5);  // 2 ms of host work
    } catch (const torch::Error& e) {  // what PyTorch raises; a TODO still open goes on to the report
      // Only asking for MPS where there is none is this lesson's mistake; the report says what
      // any other error is.
      if (torch::mps::is_available() || !mentions_mps(e)) throw;
      FAIL_CHECK("it has no MPS, yet your timer raised "
                 << py::format_exception_only(e) << harness::why << "Where torch::mps::is_available() is false "
                 "there is no device to wait for: call torch::mps::synchronize() only where it is true, as the "
                 "lesson's timer does on mps only." << kMpsTiming);
      continue;
    }
    CHECK_MESSAGE(std::abs(ms - 2.0) < 0.02,
                  "five runs of work that takes the host 2 ms each measured "
                  << harness::fixed(ms, 3) << " ms." << harness::why << "Return milliseconds (perf_counter() "
                  "counts seconds) per timed run, not the total; and where MPS is unavailable, there is no device "
                  "to wait for." << kMpsTiming);
  }
}

TEST_CASE("the timer waits for the GPU before it stops the clock") {
  for (const char* machine : {"m3-max-64gb", "m1-8gb"}) {
    sim::use_machine(machine);
    INFO("on " << std::string(machine));
    const sim::ShapeOnlyGuard shape_only;  // large products, timed but not computed
    const auto x = torch::randn({4096, 4096}, torch::Device("mps"));
    const auto work = [&] { x.matmul(x).matmul(x); };
    const double yours = lab::time_gpu_ms(work, 1, 3);
    const double device = device_ms(work);
    CHECK_MESSAGE(std::abs(yours / device - 1) < 0.05,
                  "your timer measured " << harness::fixed(yours, 3)
                  << " ms per run; the GPU worked " << harness::fixed(device, 3) << " ms per run on its own "
                  "clock." << harness::why << "Calls on mps tensors only queue kernels and return: stopping the "
                  "clock before synchronize() measures how fast the host can queue, not how long the GPU works."
                  << kNaiveVsSynchronized << kEventTiming);
  }
}

TEST_CASE("the timer warms up before it measures") {
  for (const char* machine : {"m3-max-64gb", "m1-8gb"}) {
    sim::use_machine(machine);  // a fresh process: no graph is built yet
    INFO("on " << std::string(machine));
    const auto x = torch::randn({256, 256}, torch::Device("mps"));
    const auto work = [&] {
      for (int i = 0; i < 10; ++i) x.matmul(x);
    };
    const double yours = lab::time_gpu_ms(work, 1, 1);
    const double warm = warm_synchronized_ms(work);
    CHECK_MESSAGE(yours < 1.3 * warm,
                  "your timer measured " << harness::fixed(yours, 3)
                  << " ms for one run after one warm-up; the same work, warm, takes " << harness::fixed(warm, 3)
                  << " ms." << harness::why << "The first run of an operation with new shapes builds its graph on "
                  "the host before any kernel is queued: time only after the warm-up runs." << kWarmUp);
  }
}

TEST_CASE("the loop reads the loss on the host only when it logs") {
  for (const char* machine : {"m3-max-64gb", "m1-8gb"}) {
    sim::use_machine(machine);
    INFO("on " << std::string(machine));
    const sim::ShapeOnlyGuard shape_only;  // steps that keep the GPU busy, timed but not computed
    const auto x = torch::randn({2048, 2048}, torch::Device("mps"));
    std::vector<int> logged_steps;
    lab::train_and_log([&] { return x.matmul(x).sum(); }, 12, 5, [&](int step, double) { logged_steps.push_back(step); });
    py::torch::mps::Event returned;
    returned.record();
    CHECK_MESSAGE(!returned.query(),
                  "the GPU had finished every step by the time the loop "
                  "returned, though steps 11 and 12 come after the last log" << harness::why << "The loop waited "
                  "for the GPU at every step. loss.item() and loss.cpu() are each a sync point; add the losses up "
                  "on the device and read the sum once per log." << kHiddenSyncPoint << kLoggingBoundary);
    CHECK_MESSAGE((logged_steps == std::vector<int>{5, 10}),
                  "the loop logged after steps " << listed(logged_steps)
                  << harness::why << "With 12 steps and log_every 5, log after steps 5 and 10.");
  }
}

TEST_CASE("the logged loss is the mean of the steps since the last log") {
  sim::use_machine("m3-max-64gb");
  std::vector<double> losses;  // made-up losses, so the means are known
  for (int i = 1; i <= 12; ++i) losses.push_back(3.0 - 0.25 * i);
  std::size_t next = 0;
  std::vector<std::pair<int, double>> logged;
  lab::train_and_log([&] { return torch::tensor(losses.at(next++), torch::Device("mps")); }, 12, 5,
                     [&](int step, double mean) { logged.emplace_back(step, mean); });
  CHECK_MESSAGE(next == 12, "train_and_log(step, 12, ...) should run 12 steps; it ran " << next);
  REQUIRE_MESSAGE(logged.size() == 2, "the loop logged " << logged.size() << " times" << harness::why
                                                         << "With 12 steps and log_every 5, log after steps 5 and 10.");
  for (const auto& log : logged) {  // no structured bindings: doctest's messages are lambdas (clang 14)
    const int step = log.first;
    const double mean = log.second;
    double expected = 0;
    for (int i = step - 5; i < step; ++i) expected += losses[static_cast<std::size_t>(i)] / 5;
    CHECK_MESSAGE(std::abs(mean - expected) < 1e-6,
                  "at step " << step << " you logged " << harness::fixed(mean, 4) << "; the mean of steps "
                  << step - 4 << " to " << step << " is " << harness::fixed(expected, 4) << "." << harness::why
                  << "Each log reports the steps since the last log: start a new sum after reading it."
                  << kLoggingBoundary);
  }
}
