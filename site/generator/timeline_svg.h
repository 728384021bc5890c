#pragma once
// The picture of a cell's simulated timelines: for each simulated process, a host track
// (dispatches, graph builds, cpu work, waits) above an MPS device track (kernels, copies),
// on a common time axis, drawn from the events of the cell's --trace.
//
// Readable without colour: every kind of span has its own fill pattern, named in a legend,
// and spans wide enough carry their name. Spans narrower than a pixel are binned: each pixel
// column shows the kind that took most of its time, so a run of 186 000 kernels stays a small
// file. The <title> and <desc> say what the picture shows in words.

#include <string>
#include <vector>

#include "drawing.h"
#include "trace_reader.h"

namespace site {

// The picture of one cell's run on one machine; `processes` are the cell's.
Drawing draw_timeline(const std::vector<TracedProcess>& processes, const std::string& cell,
                      const std::string& machine);

}  // namespace site
