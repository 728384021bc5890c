#include "memory_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "text.h"

namespace site {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// The size a line starts with, as the lesson and PyTorch print sizes ("800.38 MiB", "0 bytes"),
// in GiB.
std::optional<double> size_at(const std::string& text) {
  double value = 0;
  char unit[6] = {};
  if (std::sscanf(text.c_str(), " %lf %5[a-zA-Z]", &value, unit) != 2) return std::nullopt;
  const std::string_view u = unit;
  if (u == "GiB") return value;
  if (u == "MiB") return value / 1024;
  if (u == "KiB") return value / (1024 * 1024);
  if (u == "bytes") return value / kGiB;
  return std::nullopt;
}

// What follows `marker` in `line`.
std::optional<std::string> after(const std::string& line, std::string_view marker) {
  const auto at = line.find(marker);
  if (at == std::string::npos) return std::nullopt;
  return line.substr(at + marker.size());
}

std::string size_label(double gib_value) {
  if (gib_value >= 1) return fmt::format("{:.2f} GiB", gib_value);
  return fmt::format("{:.0f} MiB", gib_value * 1024);
}

struct Limit {
  double gib;
  std::string label;
  std::string dash;  // stroke-dasharray: the kind of line, readable without colour
  double label_y = 0;
};

}  // namespace

std::optional<BatchSweep> parse_batch_sweep(const std::string& output) {
  BatchSweep sweep;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    const auto unreadable = [&] {
      return std::runtime_error("the memory chart cannot read this line of " +
                                std::string(kSweepLesson) + "/" + kSweepCell + ": \"" + line +
                                "\"; update site/generator/memory_chart.cpp to match");
    };
    if (const auto rest = after(line, "recommended working set: ")) {
      sweep.recommended_gib = size_at(*rest).value_or(0);
      continue;
    }
    long long reports = 0;
    int read = 0;
    if (std::sscanf(line.c_str(), " %lld reports:%n", &reports, &read) != 1 || read == 0) continue;
    const std::string rest = line.substr(static_cast<std::size_t>(read));
    // "   256 reports: 390.80 MiB live,  1.01 GiB held,  71.69 µs per report"
    if (const auto held = after(rest, " live, ")) {
      const auto per_report = after(*held, " held, ");
      const auto size = size_at(*held);
      double us = 0;
      if (!size || !per_report || std::sscanf(per_report->c_str(), "%lf", &us) != 1)
        throw unreadable();
      sweep.points.push_back({reports, *size, us});
    } else if (rest.find("out of memory") != std::string::npos) {
      const auto allocated = after(rest, "(MPS allocated: ");
      const auto allowed = after(rest, "max allowed: ");
      const auto tried = after(rest, "Tried to allocate ");
      if (!allocated || !allowed || !tried || !size_at(*allocated) || !size_at(*allowed) ||
          !size_at(*tried)) {
        throw unreadable();
      }
      sweep.refusal =
          SweepRefusal{reports, *size_at(*allocated) + *size_at(*tried), *size_at(*allowed)};
    } else if (const auto buffer = after(rest, "Invalid buffer size: ")) {
      if (!size_at(*buffer)) throw unreadable();
      sweep.refusal = SweepRefusal{reports, *size_at(*buffer), 0};
    } else {
      throw unreadable();
    }
  }
  if (sweep.points.empty()) return std::nullopt;
  if (sweep.recommended_gib <= 0) {
    throw std::runtime_error(std::string(kSweepLesson) + "/" + kSweepCell +
                             " printed no recommended working set");
  }
  return sweep;
}

Drawing draw_memory_chart(const BatchSweep& sweep, const engine::MachineProfile& machine) {
  constexpr double kWidth = 760, kHeight = 400;
  constexpr double kLeft = 64, kRight = 740, kTop = 40, kBottom = 340;
  const double memory = static_cast<double>(machine.memory_bytes) / kGiB;
  const double others = static_cast<double>(machine.other_apps_bytes) / kGiB;
  const double swap_starts = memory - others;

  std::vector<Limit> limits = {
      {memory, fmt::format("unified memory {}", size_label(memory)), ""},
      {swap_starts,
       fmt::format("swap from {} ({} held by other apps)", size_label(swap_starts),
                   size_label(others)),
       "8 4"},
      {sweep.recommended_gib,
       fmt::format("recommended working set {}", size_label(sweep.recommended_gib)), "2 3"}};
  if (sweep.refusal && sweep.refusal->max_allowed_gib > 0) {
    limits.push_back({sweep.refusal->max_allowed_gib,
                      fmt::format("high watermark {}: MPS refuses more",
                                  size_label(sweep.refusal->max_allowed_gib)),
                      "10 3 2 3"});
  }
  double top_gib = memory;
  for (const SweepPoint& p : sweep.points) top_gib = std::max(top_gib, p.gib);
  for (const Limit& limit : limits) top_gib = std::max(top_gib, limit.gib);
  if (sweep.refusal) top_gib = std::max(top_gib, sweep.refusal->needed_gib);
  const double step = tick_step(top_gib * 1.05, 6);
  const double axis_top = std::ceil(top_gib * 1.05 / step) * step;
  const auto y = [&](double g) { return kBottom - g / axis_top * (kBottom - kTop); };

  const std::size_t bars = sweep.points.size() + (sweep.refusal ? 1 : 0);
  const double slot = (kRight - kLeft) / static_cast<double>(bars);
  const double bar_width = std::min(56.0, slot * 0.6);
  std::string body;
  for (double g = 0; g <= axis_top * 1.0001; g += step) {
    body += fmt::format(
        R"(<path d="M{} {:.1f}H{}" stroke="#e0e0e0"/><text x="{}" y="{:.1f}" text-anchor="end">{:g}</text>)"
        "\n",
        kLeft, y(g), kRight, kLeft - 6, y(g) + 4, g);
  }
  std::string first_swapping;
  for (std::size_t i = 0; i < bars; ++i) {
    const double x = kLeft + slot * (static_cast<double>(i) + 0.5);
    const bool refused = i == sweep.points.size();
    const std::int64_t reports = refused ? sweep.refusal->reports : sweep.points[i].reports;
    body += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)"
                        "\n",
                        x, kBottom + 16, reports);
    if (refused) {
      const double g = sweep.refusal->needed_gib;
      body += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="none" stroke="#b71c1c" stroke-width="1.5" stroke-dasharray="4 3"><title>{} reports would need {}: refused</title></rect>)"
          R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" class="strong">{}</text>)"
          R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" class="small">needs {}+</text>)"
          "\n",
          x - bar_width / 2, y(g), bar_width, kBottom - y(g), reports, size_label(g), x, y(g) - 18,
          sweep.refusal->max_allowed_gib > 0 ? "out of memory" : "buffer too long", x, y(g) - 5,
          size_label(g));
      continue;
    }
    const SweepPoint& p = sweep.points[i];
    const bool swapping = machine.unified_memory && p.gib > swap_starts;
    if (swapping && first_swapping.empty()) first_swapping = std::to_string(p.reports);
    body += fmt::format(
        R"svg(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="url(#{})" stroke="#0d47a1"><title>{} reports: {} on the GPU, {:.2f} µs per report{}</title></rect>)svg"
        R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" class="small">{:.2f} µs</text>)"
        "\n",
        x - bar_width / 2, y(p.gib), bar_width, kBottom - y(p.gib),
        swapping ? "swapping" : "resident", p.reports, size_label(p.gib), p.us_per_report,
        swapping ? ", partly in swap" : "", x, y(p.gib) - 5, p.us_per_report);
  }
  // The limits' labels sit at the left, where the bars are short: above their line, or below
  // it when the label of the limit above is in the way.
  std::sort(limits.begin(), limits.end(),
            [](const Limit& a, const Limit& b) { return a.gib > b.gib; });
  double previous = -1e9;
  for (Limit& limit : limits) {
    limit.label_y = y(limit.gib) - 4;
    if (limit.label_y < previous + 13) limit.label_y = std::max(previous + 13, y(limit.gib) + 13);
    previous = limit.label_y;
  }
  for (const Limit& limit : limits) {
    body += fmt::format(
        R"(<path d="M{} {:.1f}H{}" stroke="#212121" stroke-width="1.3" stroke-dasharray="{}"/>)"
        R"(<text x="{}" y="{:.1f}" class="limit">{}</text>)"
        "\n",
        kLeft, y(limit.gib), kRight, limit.dash, kLeft + 6, limit.label_y, escape(limit.label));
  }

  const std::string title =
      fmt::format("{} on {}: GPU memory against batch size", kSweepCell, machine.name);
  std::string description = fmt::format(
      "Bars: the GPU memory held (driver_allocated_memory) after each step, from {} at {} reports to {} at {}, with "
      "the time per report above each bar. Unified memory is {}; with {} held by other applications, macOS swaps "
      "once the process holds more than {}",
      size_label(sweep.points.front().gib), sweep.points.front().reports,
      size_label(sweep.points.back().gib), sweep.points.back().reports, size_label(memory),
      size_label(others), size_label(swap_starts));
  description += first_swapping.empty()
                     ? "; no batch got there."
                     : ", from " + first_swapping + " reports on (hatched bars).";
  if (sweep.refusal && sweep.refusal->max_allowed_gib > 0) {
    description += fmt::format(
        " {} reports needed more than {}, above the high watermark of {}: out of memory.",
        sweep.refusal->reports, size_label(sweep.refusal->needed_gib),
        size_label(sweep.refusal->max_allowed_gib));
  } else if (sweep.refusal) {
    description +=
        fmt::format(" {} reports needed one buffer of {}, longer than Metal allows: refused.",
                    sweep.refusal->reports, size_label(sweep.refusal->needed_gib));
  }
  const std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {1}" width="{0}" height="{1}" role="img" aria-labelledby="title desc">)"
      "\n"
      R"(<title id="title">{2}</title><desc id="desc">{3}</desc>)"
      "\n"
      R"(<style>text {{ font: 12px sans-serif; fill: #212121; }} .small {{ font-size: 10px; }} .strong, .heading {{ font-weight: bold; }} .limit {{ font-size: 11px; paint-order: stroke; stroke: #fff; stroke-width: 3px; }}</style>)"
      "\n<defs>"
      R"(<pattern id="resident" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="#90caf9"/></pattern>)"
      R"(<pattern id="swapping" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="#90caf9"/><path d="M0 8L8 0M-2 2L2 -2M6 10L10 6" stroke="#0d47a1" stroke-width="2"/></pattern>)"
      "</defs>\n"
      R"(<rect width="100%" height="100%" fill="#fff"/>)"
      "\n"
      R"(<text x="8" y="20" class="heading">{2}</text>)"
      "\n{4}"
      R"(<path d="M{5} {6}V{7}H{8}" stroke="#212121" fill="none"/>)"
      R"svg(<text x="16" y="{9}" transform="rotate(-90 16 {9})" text-anchor="middle">GPU memory (GiB)</text>)svg"
      R"(<text x="{10}" y="{11}" text-anchor="middle">batch size (reports); bars hatched where memory is in swap</text>)"
      "\n</svg>\n",
      kWidth, kHeight, escape(title), escape(description), body, kLeft, kTop, kBottom, kRight,
      (kTop + kBottom) / 2, (kLeft + kRight) / 2, kBottom + 38);
  return {svg, title, description};
}

}  // namespace site
