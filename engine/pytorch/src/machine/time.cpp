#include "engine/time.h"

#include "engine/errors.h"
#include "machine/process.h"
#include "trace/trace.h"

namespace engine::py::time {

double perf_counter() { return detail::process().timeline.host_now; }

void sleep(double seconds) {
  if (seconds < 0) throw ValueError("sleep length must be non-negative");
  detail::Timeline& t = detail::process().timeline;
  if (seconds == 0) return;  // nothing happened: no span for the timelines to draw
  detail::trace_span(detail::Track::Host, "time.sleep", "host", t.host_now, seconds);
  t.host_now += seconds;
}

}  // namespace engine::py::time
