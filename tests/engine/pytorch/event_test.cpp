// torch.mps.Event.elapsed_time as MPSEventPool::elapsedTime runs it: commit and wait on the
// stream first, then check the two completion times.

#include <doctest/doctest.h>

#include <string>

#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/ops.h"
#include "engine/sim.h"
#include "engine/time.h"
#include "test_support.h"

using test_support::error_of;

TEST_CASE("elapsed_time waits for the device before it checks the events") {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::ShapeOnlyGuard shape_only;  // only the timeline matters here
  const engine::Tensor x = engine::ones({2048, 2048}, engine::Device("mps"));
  engine::py::torch::mps::Event untimed, end(true);
  untimed.record();
  x.matmul(x);
  end.record();
  const double before = engine::py::time::perf_counter();
  CHECK(error_of([&] { untimed.elapsed_time(end); }) ==
        "Events were not created with argument 'enable_timing=True'");
  CHECK(engine::py::time::perf_counter() > before);  // it synchronized first, then refused
  CHECK(end.query());
}

TEST_CASE("the end event must complete strictly after the start event") {
  engine::sim::use_machine("m3-max-64gb");
  engine::py::torch::mps::Event a(true), b(true);
  b.record();
  a.record();
  CHECK(error_of([&] { a.elapsed_time(b); }) == "End event " + std::to_string(b.id()) +
                                                    " was not recorded after start event " +
                                                    std::to_string(a.id()));
  CHECK(b.elapsed_time(a) > 0);
}

TEST_CASE("an end event that was never recorded with timing is where PyTorch would wait forever") {
  engine::sim::use_machine("m3-max-64gb");
  engine::py::torch::mps::Event start(true), never(true), untimed_end;
  start.record();
  untimed_end.record();
  const std::string hang =
      "the end event was never recorded with enable_timing=True: PyTorch 2.9 would "
      "wait here forever for its completion time (the emulator stops instead)";
  CHECK(error_of([&] { start.elapsed_time(never); }) == hang);
  CHECK(error_of([&] { start.elapsed_time(untimed_end); }) == hang);
}

TEST_CASE("event ids come from MPSEventPool: a released event's id is the next one handed out") {
  engine::sim::use_machine("m3-max-64gb");
  engine::sim::restart_with_environment({});
  engine::py::torch::mps::Event first, second;
  CHECK(first.id() == 1);
  CHECK(second.id() == 2);
  {
    engine::py::torch::mps::Event third, fourth;
    CHECK(fourth.id() == 4);
  }  // released: fourth, then third, onto the pool's stack
  engine::py::torch::mps::Event again;
  CHECK(again.id() == 3);
  engine::py::torch::mps::Event next;
  CHECK(next.id() == 4);
  engine::py::torch::mps::Event fresh;
  CHECK(fresh.id() == 5);
}

TEST_CASE("copies of an event are one event, as two Python names for one object") {
  engine::sim::use_machine("m3-max-64gb");
  engine::py::torch::mps::Event event(true);
  const engine::py::torch::mps::Event alias = event;
  event.record();
  event.synchronize();
  CHECK(alias.query());
  CHECK(alias.id() == event.id());
}
