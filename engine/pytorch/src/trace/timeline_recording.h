#pragma once
// Internal: hands each span of the simulated timelines to the live sim::TimelineRecordings.

#include <string_view>

#include "trace/trace.h"

namespace engine::detail {

void record_in_timelines(Track track, std::string_view name, std::string_view category,
                         double start, double duration);

}  // namespace engine::detail
