// sim::TimelineRecording (engine/timeline.h): the live recordings, fed by trace_span.

#include "trace/timeline_recording.h"

#include <vector>

#include "engine/timeline.h"

namespace engine {
namespace {

std::vector<sim::TimelineRecording*>& live_recordings() {
  static std::vector<sim::TimelineRecording*> live;
  return live;
}

}  // namespace

namespace sim {

TimelineRecording::TimelineRecording() { live_recordings().push_back(this); }

TimelineRecording::~TimelineRecording() { std::erase(live_recordings(), this); }

}  // namespace sim

namespace detail {

void record_in_timelines(Track track, std::string_view name, std::string_view category,
                         double start, double duration) {
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
