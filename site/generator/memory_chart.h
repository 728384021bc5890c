#pragma once
// Lesson 6's picture: the batch sweep's GPU memory against the batch size, with the
// machine's limits and the point where macOS starts swapping. Every number comes from the
// run: the sizes, times and the allocator's refusal from what the cell `batch_sweep` printed,
// the machine's memory and the other applications' share from its profile, which the engine's
// swap model compares the process's memory with.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "drawing.h"
#include "engine/machine.h"

namespace site {

struct SweepPoint {
  std::int64_t reports = 0;
  double gib = 0;  // "held": driver_allocated_memory() after the step
  double us_per_report = 0;
};

struct SweepRefusal {
  std::int64_t reports = 0;
  // What the step needed at least: the allocator's heaps when it refused ("MPS allocated")
  // plus the request it refused ("Tried to allocate").
  double needed_gib = 0;
  // "max allowed: ...", the high watermark; 0 when Metal refused one buffer as too long
  // ("Invalid buffer size"), whatever the watermark.
  double max_allowed_gib = 0;
};

struct BatchSweep {
  double recommended_gib = 0;  // the recommended working set
  std::vector<SweepPoint> points;
  std::optional<SweepRefusal> refusal;
};

// The lesson and cell whose output the chart reads.
inline constexpr const char* kSweepLesson = "06_1_the_bill_and_the_limits";
inline constexpr const char* kSweepCell = "batch_sweep";

// Reads the sweep from the cell's output; nullopt when the machine printed no sweep (no mps
// device). Throws std::runtime_error when the output has sweep lines the chart cannot read,
// so that a change of the lesson's wording fails the site's build instead of losing the chart.
std::optional<BatchSweep> parse_batch_sweep(const std::string& output);

Drawing draw_memory_chart(const BatchSweep& sweep, const engine::MachineProfile& machine);

}  // namespace site
