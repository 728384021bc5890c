#include "timeline_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "text.h"

namespace site {
namespace {

// How each category of span looks and reads. The patterns differ in shape, not only in
// colour, so that a grey-scale print or a colour-blind reader still tells them apart.
struct Kind {
  std::string_view category;
  std::string_view singular;
  std::string_view plural;
  std::string_view pattern;  // the inside of an SVG <pattern> 8 by 8 user units
  bool encloses = false;     // a span around other spans of its lane: drawn as a frame around them
};

constexpr std::array kKinds = {
    Kind{"dispatch", "dispatch", "dispatches", R"(<rect width="8" height="8" fill="#a6cee3"/>)"},
    Kind{
        "compile", "graph build", "graph builds",
        R"(<rect width="8" height="8" fill="#fdbf6f"/><path d="M0 8L8 0M-2 2L2 -2M6 10L10 6" stroke="#6b3d00" stroke-width="1.5"/>)"},
    Kind{
        "cpu", "cpu op", "cpu ops",
        R"(<rect width="8" height="8" fill="#b2df8a"/><circle cx="2" cy="2" r="1.3" fill="#1b5e20"/><circle cx="6" cy="6" r="1.3" fill="#1b5e20"/>)"},
    Kind{
        "view", "view op", "view ops",
        R"(<rect width="8" height="8" fill="#e0e0e0"/><path d="M0 4H8" stroke="#555" stroke-width="1"/>)"},
    Kind{
        "wait", "wait", "waits",
        R"(<rect width="8" height="8" fill="#ffffff"/><path d="M0 0L8 8M8 0L0 8" stroke="#c62828" stroke-width="1.2"/>)"},
    Kind{
        "host", "host-only op", "host-only ops",
        R"(<rect width="8" height="8" fill="#f5f5f5"/><path d="M0 2H8M0 6H8" stroke="#424242" stroke-width="1"/>)"},
    Kind{"fallback", "cpu fallback", "cpu fallbacks", R"(<rect width="8" height="8" fill="none"/>)",
         true},
    Kind{
        "data", "batch loaded", "batches loaded",
        R"(<rect width="8" height="8" fill="#ffe082"/><path d="M0 0L8 8" stroke="#8d6e00" stroke-width="1"/>)"},
    Kind{
        "startup", "process start", "process starts",
        R"(<rect width="8" height="8" fill="#ffccbc"/><circle cx="4" cy="4" r="1.6" fill="#bf360c"/>)"},
    Kind{"kernel", "kernel", "kernels", R"(<rect width="8" height="8" fill="#1f78b4"/>)"},
    Kind{
        "copy", "copy", "copies",
        R"(<rect width="8" height="8" fill="#cab2d6"/><path d="M0 0L8 8M-2 6L2 10M6 -2L10 2" stroke="#4a148c" stroke-width="1.5"/>)"},
    Kind{"event", "event", "events", R"(<rect width="8" height="8" fill="#212121"/>)"},
    // After a cell's first 10,000 spans, runs of per-operation spans are written as one (--trace).
    Kind{
        "summary", "summarised run of ops", "summarised runs of ops",
        R"(<rect width="8" height="8" fill="#bdbdbd"/><path d="M0 2H8M0 6H8M2 0V8M6 0V8" stroke="#616161" stroke-width="0.8"/>)"},
};
constexpr Kind kOtherKind{"other", "span", "spans",
                          R"(<rect width="8" height="8" fill="#9e9e9e"/>)"};

const Kind& kind_of(std::string_view category) {
  for (const Kind& kind : kKinds) {
    if (kind.category == category) return kind;
  }
  return kOtherKind;
}

std::string pattern_id(const Kind& kind) { return "p-" + std::string(kind.category); }

constexpr double kWidth = 960;
constexpr double kPlotLeft = 118;
constexpr double kPlotRight = 944;
constexpr double kLaneHeight = 26;
constexpr double kLaneGap = 6;
constexpr double kAxisHeight = 24;
constexpr double kCharWidth = 7.2;  // of the 12 px labels, for deciding what fits

// "0.25 ms", "12.5 ms", "7.61 s", "564 s": three significant digits at most.
std::string duration_text(double ms) {
  if (ms == 0) return "0 ms";
  if (ms >= 100000) return fmt::format("{:.0f} s", ms / 1000);
  if (ms >= 10000) return fmt::format("{:.1f} s", ms / 1000);
  if (ms >= 1000) return fmt::format("{:.2f} s", ms / 1000);
  if (ms >= 100) return fmt::format("{:.0f} ms", ms);
  if (ms >= 10) return fmt::format("{:.1f} ms", ms);
  if (ms >= 1) return fmt::format("{:.2f} ms", ms);
  return fmt::format("{:.3g} ms", ms);
}

std::string tick_label(double ms, double step) {
  const int decimals =
      step >= 1 ? 0 : std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  return fmt::format("{:.{}f}", ms, decimals);
}

// The stretch of time a set of lanes shows.
struct Window {
  double from_ms = 0;
  double to_ms = 0;
  double length() const { return to_ms - from_ms; }
};

struct Totals {
  int count = 0;
  double ms = 0;
};

// Per track, per category: how many spans and how long they took.
std::map<std::string, Totals> totals(const TracedProcess& process, Track track) {
  std::map<std::string, Totals> result;
  for (const Span& span : process.spans) {
    if (span.track != track) continue;
    Totals& t = result[process.name_of(span.category)];
    ++t.count;
    t.ms += span.duration_ms;
  }
  return result;
}

std::string describe_track(const TracedProcess& process, Track track) {
  std::string text;
  for (const auto& [category, t] : totals(process, track)) {
    const Kind& kind = kind_of(category);
    text += fmt::format("{}{} {} ({})", text.empty() ? "" : ", ", t.count,
                        t.count == 1 ? kind.singular : kind.plural, duration_text(t.ms));
  }
  return text.empty() ? "nothing" : text;
}

double end_of(const TracedProcess& process) {
  double end = 0;
  for (const Span& span : process.spans) end = std::max(end, span.start_ms + span.duration_ms);
  return end;
}

// The category that took most of a pixel column's time, or -1 for an idle column.
int dominant(const std::map<int, double>& column) {
  int best = -1;
  double most = 0;
  for (const auto& [category, ms] : column) {
    if (ms > most) {
      most = ms;
      best = category;
    }
  }
  return best;
}

// One lane of the picture: spans binned into pixel columns, runs of columns of the same
// dominant category drawn as one rectangle.
class Lane {
 public:
  Lane(const TracedProcess& process, Track track, Window window)
      : process_(process),
        track_(track),
        window_(window),
        ms_per_px_(window.length() / (kPlotRight - kPlotLeft)) {}

  std::string draw(double top) {
    const auto columns = static_cast<std::size_t>(kPlotRight - kPlotLeft);
    std::vector<std::map<int, double>> busy(columns);  // column -> category -> ms
    std::vector<std::map<int, int>> started(columns);  // column -> category -> spans starting there
    std::string markers, frames;
    for (const Span& span : process_.spans) {
      if (span.track != track_) continue;
      const double begin_px = (span.start_ms - window_.from_ms) / ms_per_px_;
      const double end_px = (span.start_ms + span.duration_ms - window_.from_ms) / ms_per_px_;
      if (begin_px >= static_cast<double>(columns) || end_px < 0)
        continue;  // outside a zoomed view
      const auto first = std::min(columns - 1, static_cast<std::size_t>(std::max(0.0, begin_px)));
      ++started[first][span.category];
      if (kind_of(process_.name_of(span.category)).encloses) {
        frames += frame(span, top);
        continue;
      }
      if (span.duration_ms <= 0) {
        if (begin_px >= 0) markers += marker(span, top);
        continue;
      }
      for (std::size_t c = first; c < columns && static_cast<double>(c) < end_px; ++c) {
        const double overlap = std::min(end_px, static_cast<double>(c + 1)) -
                               std::max(begin_px, static_cast<double>(c));
        busy[c][span.category] += std::max(0.0, overlap) * ms_per_px_;
      }
    }
    std::string svg;
    std::size_t c = 0;
    while (c < columns) {
      const int category = dominant(busy[c]);
      if (category < 0) {
        ++c;
        continue;
      }
      std::size_t end = c;
      int count = 0;
      double ms = 0;
      while (end < columns && dominant(busy[end]) == category) {
        count += started[end][category];
        ms += busy[end][category];
        ++end;
      }
      svg += run(category, c, end, count, ms, top);
      c = end;
    }
    return svg + labels(top) + markers + frames;
  }

 private:
  std::string run(int category, std::size_t first, std::size_t end, int count, double ms,
                  double top) const {
    const Kind& kind = kind_of(process_.name_of(category));
    const double x = kPlotLeft + static_cast<double>(first);
    const double from = window_.from_ms + static_cast<double>(first) * ms_per_px_;
    const double to = window_.from_ms + static_cast<double>(end) * ms_per_px_;
    return fmt::format(
        R"svg(<rect x="{:.1f}" y="{:.1f}" width="{}" height="{}" fill="url(#{})" stroke="#333" stroke-width="0.4"><title>{} {} ({} busy) between {} and {}</title></rect>)svg"
        "\n",
        x, top, end - first, kLaneHeight, pattern_id(kind), count,
        count == 1 ? kind.singular : kind.plural, duration_text(ms), duration_text(from),
        duration_text(to));
  }

  std::string marker(const Span& span, double top) const {
    const double x = kPlotLeft + (span.start_ms - window_.from_ms) / ms_per_px_;
    return fmt::format(
        R"(<path d="M{0:.1f} {1:.1f}V{2:.1f}M{3:.1f} {1:.1f}H{4:.1f}L{0:.1f} {5:.1f}Z" stroke="#000" stroke-width="1.2" fill="#000"><title>{6} at {7}</title></path>)"
        "\n",
        x, top, top + kLaneHeight, x - 4, x + 4, top + 6, escape(process_.name_of(span.name)),
        duration_text(span.start_ms));
  }

  std::string frame(const Span& span, double top) const {
    const double begin = std::max(span.start_ms, window_.from_ms);
    const double x = kPlotLeft + (begin - window_.from_ms) / ms_per_px_;
    const double width = std::max(
        2.0, (std::min(span.start_ms + span.duration_ms, window_.to_ms) - begin) / ms_per_px_);
    return fmt::format(
        R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" class="frame"><title>{} ({}) from {}</title></rect>)"
        "\n",
        x, top + 1, width, kLaneHeight - 2, escape(process_.name_of(span.name)),
        duration_text(span.duration_ms), duration_text(span.start_ms));
  }

  // The names of spans wide enough to hold them, on a white ground so any pattern reads.
  std::string labels(double top) const {
    std::string svg;
    for (const Span& span : process_.spans) {
      const double end = span.start_ms + span.duration_ms;
      if (span.track != track_ || span.duration_ms <= 0 || span.start_ms >= window_.to_ms ||
          end <= window_.from_ms)
        continue;
      if (kind_of(process_.name_of(span.category)).encloses) continue;
      const std::string& name = process_.name_of(span.name);
      const double begin = std::max(span.start_ms, window_.from_ms);
      const double width = (std::min(end, window_.to_ms) - begin) / ms_per_px_;
      const double text_width = static_cast<double>(name.size()) * kCharWidth + 6;
      if (width < text_width + 4) continue;
      const double x = kPlotLeft + (begin - window_.from_ms) / ms_per_px_ + width / 2;
      svg += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="14" rx="2" fill="#fff" opacity="0.9"/>)"
          R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">{}</text>)"
          "\n",
          x - text_width / 2, top + kLaneHeight / 2 - 7, text_width, x, top + kLaneHeight / 2 + 4,
          escape(name));
    }
    return svg;
  }

  const TracedProcess& process_;
  Track track_;
  Window window_;
  double ms_per_px_;
};

std::string axis(double top, Window window) {
  std::string svg = fmt::format(R"(<path d="M{} {:.1f}H{}" stroke="#333"/>)"
                                "\n",
                                kPlotLeft, top, kPlotRight);
  const double step = tick_step(window.length(), 8);
  const double first_tick =
      window.from_ms == 0 ? 0 : std::ceil(window.from_ms / step - 1e-9) * step;  // never "-0"
  for (double t = first_tick; t <= window.to_ms + window.length() * 1e-4; t += step) {
    const double x = kPlotLeft + (t - window.from_ms) / window.length() * (kPlotRight - kPlotLeft);
    svg += fmt::format(
        R"(<path d="M{0:.1f} {1:.1f}v4" stroke="#333"/><text x="{0:.1f}" y="{2:.1f}" text-anchor="middle">{3}</text>)"
        "\n",
        x, top, top + 15, tick_label(t, step));
  }
  svg += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end">time (ms)</text>)"
                     "\n",
                     kPlotLeft - 14, top + 15);
  return svg;
}

// The legend's swatches, wrapped into rows; moves `top` below them.
std::string legend(const std::vector<const Kind*>& kinds, double& top) {
  std::string svg;
  double x = kPlotLeft;
  for (const Kind* kind : kinds) {
    const double width = 22 + static_cast<double>(kind->plural.size()) * kCharWidth + 16;
    if (x + width > kWidth) {
      x = kPlotLeft;
      top += 20;
    }
    const std::string swatch =
        kind->encloses ? std::string(R"(class="frame")")
                       : fmt::format(R"svg(fill="url(#{})" stroke="#333" stroke-width="0.6")svg",
                                     pattern_id(*kind));
    svg += fmt::format(
        R"(<rect x="{:.1f}" y="{:.1f}" width="16" height="14" {}/><text x="{:.1f}" y="{:.1f}">{}</text>)"
        "\n",
        x, top, swatch, x + 22, top + 11, kind->plural);
    x += width;
  }
  top += 20;
  return svg;
}

// A kind's place in the table, so that legends list kinds in one order.
std::size_t order_of(const Kind* kind) {
  for (std::size_t i = 0; i < kKinds.size(); ++i) {
    if (&kKinds[i] == kind) return i;
  }
  return kKinds.size();
}

// Whether more than one process did something, so that each needs its name.
bool several_processes(const std::vector<TracedProcess>& processes) {
  return std::count_if(processes.begin(), processes.end(),
                       [](const TracedProcess& p) { return !p.spans.empty(); }) > 1;
}

// The tracks of `process`: the host, the device, then its DataLoader workers, if it had any.
std::vector<Track> tracks_of(const TracedProcess& process) {
  std::set<int> workers;
  for (const Span& span : process.spans) {
    if (worker_of(span.track) >= 0) workers.insert(worker_of(span.track));
  }
  std::vector<Track> tracks{Track::Host, Track::Device};
  for (const int w : workers) tracks.push_back(static_cast<Track>(2 + w));
  return tracks;
}

std::string lane_name(Track track) {
  if (track == Track::Host) return "host";
  if (track == Track::Device) return "MPS device";
  return fmt::format("worker {}", worker_of(track));
}

// The lanes of `process` over `window`, with their time axis.
std::string lanes(const TracedProcess& process, Window window, double& top) {
  std::string body;
  for (const Track track : tracks_of(process)) {
    body += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end" class="lane">{}</text>)"
                        "\n",
                        kPlotLeft - 8, top + kLaneHeight / 2 + 4, lane_name(track));
    body += fmt::format(
        R"(<rect x="{}" y="{:.1f}" width="{}" height="{}" fill="#fafafa" stroke="#bbb" stroke-width="0.5"/>)"
        "\n",
        kPlotLeft, top, kPlotRight - kPlotLeft, kLaneHeight);
    body += Lane(process, track, window).draw(top);
    top += kLaneHeight + kLaneGap;
  }
  body += axis(top - kLaneGap + 2, window);
  top += kAxisHeight + 8;
  return body;
}

// A closer view of part of a run, and the words that say which part.
struct Zoom {
  Window window;
  std::string caption;
};

// The end of the `shown`-th span to end from span `first` on: a window over about that many.
double end_after(const TracedProcess& process, std::size_t first, std::size_t shown) {
  std::vector<double> ends;
  for (std::size_t i = first; i < process.spans.size(); ++i)
    ends.push_back(process.spans[i].start_ms + process.spans[i].duration_ms);
  if (ends.size() <= shown) return *std::max_element(ends.begin(), ends.end());
  std::nth_element(ends.begin(), ends.begin() + static_cast<std::ptrdiff_t>(shown), ends.end());
  return ends[shown];
}

// Where a run's GPU work begins: its first operation on mps that is not a copy (the copies
// before it bring weights initialised on the cpu over). The spans before it are set-up.
std::size_t first_gpu_operation(const TracedProcess& process) {
  for (std::size_t i = 0; i < process.spans.size(); ++i) {
    const std::string& category = process.name_of(process.spans[i].category);
    if ((category == "dispatch" || category == "compile") &&
        process.name_of(process.spans[i].name).find("copy") == std::string::npos) {
      return i;
    }
  }
  return process.spans.size();
}

// A second view where the whole run hides what matters:
// - a run so long that its trace summarises the rest (a training loop): a few steps after its
//   last graph build, where the steps repeat (up to its third sync point, if it has them);
// - a run whose set-up (weights made on the cpu, moved over) takes a quarter of the picture or
//   more: its GPU work, or the first few hundred spans of it;
// - any other run with far more spans than pixels, which reads as solid bars: the first few
//   hundred spans of its GPU work, warm-up included, where the pattern of each step can be seen.
std::optional<Zoom> zoom_of(const TracedProcess& process) {
  constexpr std::size_t kDense = 4 * static_cast<std::size_t>(kPlotRight - kPlotLeft);
  constexpr std::size_t kShown = 300;
  constexpr std::size_t kShownAfterBuilds = 1000;  // a few repetitions of a model's step
  const std::size_t count = process.spans.size();
  const double end = end_of(process);
  const auto closer = [](double from, double to, std::string_view where) {
    return Zoom{{from, to},
                fmt::format("{} from {}, {}, closer:", duration_text(to - from),
                            duration_text(from), where)};
  };
  std::size_t after_builds = 0;
  bool summarised = false;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string& category = process.name_of(process.spans[i].category);
    if (category == "summary") summarised = true;
    if (category == "compile" && !summarised) after_builds = i + 1;
  }
  if (summarised && after_builds > 0 && count - after_builds > kShownAfterBuilds) {
    // Up to the third time the host waits for results, if the loop does: three repetitions of
    // whatever ends in a sync point. (A wait for a copy to mps is not one: the GPU needs the data.)
    const double from = process.spans[after_builds].start_ms;
    double to = end_after(process, after_builds, kShownAfterBuilds);
    int waits = 0;
    for (std::size_t i = after_builds; i < count && waits < 3; ++i) {
      const Span& span = process.spans[i];
      const bool for_results = process.name_of(span.category) == "wait" &&
                               process.name_of(span.name).find("to mps") == std::string::npos;
      if (for_results && ++waits == 3) to = span.start_ms + span.duration_ms;
    }
    return closer(from, to, "after the last graph build");
  }
  const std::size_t work = first_gpu_operation(process);
  const bool long_set_up = work < count && process.spans[work].start_ms > end / 4;
  if (!long_set_up && count < kDense) return std::nullopt;
  const std::size_t first = work < count ? work : 0;
  const double from = first == 0 ? 0 : process.spans[first].start_ms;
  const double to = count - first > kDense ? end_after(process, first, kShown) : end;
  if (!long_set_up && to - from >= end / 4) return std::nullopt;  // not much closer than the whole
  if (from == 0) return Zoom{{0, to}, fmt::format("The first {}, closer:", duration_text(to))};
  return closer(from, to, "from the first operation on the GPU");
}

// The picture: per process a host and a device lane with a time axis, then the legend.
std::string svg(const std::vector<TracedProcess>& processes, const Drawing& caption) {
  std::string body;
  std::vector<const Kind*> kinds;
  double top = 30;
  const bool several = several_processes(processes);
  for (const TracedProcess& process : processes) {
    if (process.spans.empty()) continue;  // a process the cell started but gave no work
    for (const Span& span : process.spans) {
      const Kind* kind = &kind_of(process.name_of(span.category));
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
    }
    if (several) {
      body += fmt::format(R"(<text x="8" y="{:.1f}" class="process">{}</text>)"
                          "\n",
                          top + 4, escape(process.label));
      top += 14;
    }
    const Window whole{0, std::max(end_of(process), 1e-6)};
    body += lanes(process, whole, top);
    if (const std::optional<Zoom> zoom = zoom_of(process); zoom && zoom->window.length() > 0) {
      body += fmt::format(R"(<text x="8" y="{:.1f}" class="process">{}</text>)"
                          "\n",
                          top + 4, zoom->caption);
      top += 14;
      body += lanes(process, zoom->window, top);
    }
  }
  std::sort(kinds.begin(), kinds.end(),
            [](const Kind* a, const Kind* b) { return order_of(a) < order_of(b); });
  std::string defs;
  for (const Kind* kind : kinds) {
    defs += fmt::format(
        R"(<pattern id="{}" width="8" height="8" patternUnits="userSpaceOnUse">{}</pattern>)"
        "\n",
        pattern_id(*kind), kind->pattern);
  }
  body += legend(kinds, top);
  const double height = top + 4;
  return fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {1:.0f}" width="{0}" height="{1:.0f}" role="img" aria-labelledby="title desc">)"
      "\n"
      R"(<title id="title">{2}</title>)"
      "\n"
      R"(<desc id="desc">{3}</desc>)"
      "\n"
      R"(<style>text {{ font: 12px sans-serif; fill: #212121; }} .lane {{ font-weight: bold; }} .heading {{ font-size: 13px; font-weight: bold; }} .process {{ font-style: italic; }} .frame {{ fill: none; stroke: #7f0000; stroke-width: 2; stroke-dasharray: 6 3; }}</style>)"
      "\n<defs>\n{4}</defs>\n"
      R"(<rect width="100%" height="100%" fill="#fff"/>)"
      "\n"
      R"(<text x="8" y="18" class="heading">{2}</text>)"
      "\n{5}</svg>\n",
      kWidth, height, escape(caption.title), escape(caption.description), defs, body);
}

}  // namespace

Drawing draw_timeline(const std::vector<TracedProcess>& processes, const std::string& cell,
                      const std::string& machine) {
  Drawing caption;
  caption.title = cell + " on " + machine + ": the host and MPS device timelines";
  for (const TracedProcess& process : processes) {
    if (process.spans.empty()) continue;
    if (!caption.description.empty())
      caption.description += "\n";  // a line per process under the picture
    if (several_processes(processes)) caption.description += process.label + ": ";
    caption.description += fmt::format(
        "over {}, the host ran {}; the MPS device ran {}", duration_text(end_of(process)),
        describe_track(process, Track::Host), describe_track(process, Track::Device));
    for (const Track track : tracks_of(process)) {
      if (worker_of(track) >= 0)
        caption.description +=
            fmt::format("; {} ran {}", lane_name(track), describe_track(process, track));
    }
    caption.description += ".";
  }
  caption.svg = svg(processes, caption);
  return caption;
}

}  // namespace site
