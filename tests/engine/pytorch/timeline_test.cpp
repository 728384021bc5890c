// sim::TimelineRecording hands a program the spans --trace writes: what the host and the device
// did, in order, on the simulated clocks.

#include "engine/timeline.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/factories.h"
#include "engine/ops.h"
#include "engine/sim.h"

namespace {

std::vector<std::string> categories(const engine::sim::TimelineRecording& recording,
                                    const std::string& track) {
  std::vector<std::string> out;
  for (const auto& span : recording.spans()) {
    if (span.track == track) out.push_back(span.category);
  }
  return out;
}

}  // namespace

TEST_CASE("a recording holds the host's dispatches and waits and the device's kernels, in order") {
  engine::sim::use_machine("m3-max-64gb");
  const engine::Tensor x = engine::ones({256, 256}, engine::Device("mps"));
  engine::sim::TimelineRecording recording;
  x.matmul(x).sum().item<float>();
  // the product's and the sum's first use builds their graphs; item() copies back and waits
  CHECK(categories(recording, "host") ==
        std::vector<std::string>{"dispatch", "compile", "dispatch", "compile", "dispatch", "wait"});
  CHECK(categories(recording, "mps device") ==
        std::vector<std::string>{"kernel", "kernel", "copy"});
  const auto& spans = recording.spans();
  CHECK(spans[1].name == "aten::mm");
  for (std::size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].track == spans[i - 1].track) CHECK(spans[i].start >= spans[i - 1].start);
    CHECK(spans[i].duration >= 0);
  }
  const auto& wait = spans.back();
  const auto& copy = spans[spans.size() - 2];
  CHECK(wait.start + wait.duration >= copy.start + copy.duration);  // the host waited for the copy
}

TEST_CASE("a recording sees only what happens while it is alive, and a cpu op is host work") {
  const engine::Tensor x = engine::ones({64, 64});
  x.matmul(x);
  engine::sim::TimelineRecording recording;
  x.sum();
  REQUIRE(recording.spans().size() == 1);
  CHECK(recording.spans()[0].track == "host");
  CHECK(recording.spans()[0].category == "cpu");
  CHECK(recording.spans()[0].name == "aten::sum.dim_IntList");
}

TEST_CASE("totals sum what a recording of the same work holds, per track, category and name") {
  engine::sim::use_machine("m3-max-64gb");
  const engine::Tensor x = engine::ones({128, 128}, engine::Device("mps"));
  engine::sim::TimelineRecording recording;
  engine::sim::TimelineTotals totals;
  for (int i = 0; i < 3; ++i) x.matmul(x).sum().item<float>();
  double recorded = 0, summed = 0;
  for (const auto& span : recording.spans()) recorded += span.duration;
  for (const auto& [key, seconds] : totals.seconds()) summed += seconds;
  CHECK(summed == doctest::Approx(recorded).epsilon(1e-12));
  const auto mm = totals.seconds().find(std::tuple("mps device", "kernel", "aten::mm"));
  REQUIRE(mm != totals.seconds().end());
  double mm_spans = 0;
  for (const auto& span : recording.spans()) {
    if (span.track == "mps device" && span.name == "aten::mm") mm_spans += span.duration;
  }
  CHECK(mm->second == mm_spans);
  CHECK(mm_spans > 0);
}
