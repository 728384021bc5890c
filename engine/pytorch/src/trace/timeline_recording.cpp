// sim::TimelineRecording and sim::TimelineTotals (engine/timeline.h): the live recordings and
// totals, fed by trace_span.

#include "trace/timeline_recording.h"

#include <vector>

#include "engine/timeline.h"

namespace engine {
namespace {

std::vector<sim::TimelineRecording*>& live_recordings() {
  static std::vector<sim::TimelineRecording*> live;
  return live;
}

std::vector<sim::TimelineTotals*>& live_totals() {
  static std::vector<sim::TimelineTotals*> live;
  return live;
}

}  // namespace

namespace sim {

TimelineRecording::TimelineRecording() { live_recordings().push_back(this); }

TimelineRecording::~TimelineRecording() { std::erase(live_recordings(), this); }

TimelineTotals::TimelineTotals() { live_totals().push_back(this); }

TimelineTotals::~TimelineTotals() { std::erase(live_totals(), this); }

void TimelineTotals::add(std::string_view track, std::string_view category, std::string_view name,
                         double duration) {
  const auto key = std::tuple(track, category, name);
  const auto at = seconds_.lower_bound(key);
  if (at != seconds_.end() && !seconds_.key_comp()(key, at->first)) {
    at->second += duration;
  } else {
    seconds_.emplace_hint(at, Key(track, category, name), duration);
  }
}

}  // namespace sim

namespace detail {

void record_in_timelines(Track track, std::string_view name, std::string_view category,
                         double start, double duration) {
  for (sim::TimelineTotals* totals : live_totals())
    totals->add(track_name(track), category, name, duration);
  for (sim::TimelineRecording* recording : live_recordings()) {
    recording->add({.track = track_name(track),
                    .name = std::string(name),
                    .category = std::string(category),
                    .start = start,
                    .duration = duration});
  }
}

}  // namespace detail
}  // namespace engine
