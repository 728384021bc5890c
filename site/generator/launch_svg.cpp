#include "launch_svg.h"

#include <fmt/format.h>

#include <algorithm>

#include "text.h"

namespace site {
namespace {

constexpr double kLaunchWidth = 760, kLaunchLeft = 24, kLaunchTop = 48, kLaunchDrawWidth = 712;
constexpr std::uint64_t kLaunchSimdWidth = 32;  // Apple GPUs' SIMD groups (engine/metal/dispatch.h)
constexpr std::uint64_t kMostThreadsDrawn = 64;  // per side, for a grid drawn thread by thread
constexpr std::uint64_t kMostGroupsDrawn = 16;   // per side, for one drawn by threadgroup

// How many of the threads [first, end) touched no device memory.
std::uint64_t idle_between(const LaunchShape& launch, std::uint64_t first, std::uint64_t end) {
  std::uint64_t idle = 0;
  for (const auto& [from, to] : launch.idle) {
    const std::uint64_t a = std::max(from, first), b = std::min(to, end);
    if (a < b) idle += b - a;
  }
  return idle;
}

// Two fills for SIMD groups side by side, and the hatching of threads that did nothing.
std::string simd_fill(std::uint64_t simd_group, bool idle) {
  if (idle) return "url(#idle)";
  return simd_group % 2 == 0 ? "#90caf9" : "#e3f2fd";
}

struct LaunchBody {
  std::string svg;
  double height = 0;
};

// Every thread a square, in the grid's own layout: small grids, one or two dimensions.
LaunchBody threads_drawn(const LaunchShape& l) {
  const std::uint64_t w = l.grid[0], h = l.grid[1];
  const std::uint64_t gw = std::min(l.group[0], w), gh = std::min(l.group[1], h);
  const double side =
      std::clamp(std::min(kLaunchDrawWidth / static_cast<double>(w), 22.0), 4.0, 22.0);
  LaunchBody body;
  for (std::uint64_t y = 0; y < h; ++y) {
    for (std::uint64_t x = 0; x < w; ++x) {
      const std::uint64_t group_width = std::min(gw, w - x / gw * gw);
      const std::uint64_t lane = x % gw + group_width * (y % gh);
      const bool idle = idle_between(l, x + w * y, x + w * y + 1) == 1;
      body.svg += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}" stroke="#607d8b" stroke-width="0.5"><title>thread ({}, {}): lane {} of SIMD group {}{}</title></rect>)"
          "\n",
          kLaunchLeft + side * static_cast<double>(x), kLaunchTop + side * static_cast<double>(y),
          side, side, simd_fill(lane / kLaunchSimdWidth, idle), x, y, lane % kLaunchSimdWidth,
          lane / kLaunchSimdWidth, idle ? ", idle" : "");
    }
  }
  for (std::uint64_t y = 0; y < h; y += gh) {
    for (std::uint64_t x = 0; x < w; x += gw) {
      body.svg += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="none" stroke="#0d47a1" stroke-width="2.5"/>)"
          "\n",
          kLaunchLeft + side * static_cast<double>(x), kLaunchTop + side * static_cast<double>(y),
          side * static_cast<double>(std::min(gw, w - x)),
          side * static_cast<double>(std::min(gh, h - y)));
    }
  }
  body.height = side * static_cast<double>(h);
  return body;
}

// The threadgroups in rows, each a box of its SIMD groups' stripes, hatched for the share of its
// threads that did nothing; at most 16 x 16 threadgroups, the rest said in words.
LaunchBody groups_drawn(const LaunchShape& l) {
  const std::uint64_t w = l.grid[0], h = l.grid[1];
  const std::uint64_t gw = std::min(l.group[0], w), gh = std::min(l.group[1], h);
  const std::uint64_t across = std::min((w + gw - 1) / gw, kMostGroupsDrawn);
  const std::uint64_t down = std::min((h + gh - 1) / gh, kMostGroupsDrawn);
  const double box = kLaunchDrawWidth / static_cast<double>(across);
  const double tall = h == 1 ? 40.0 : std::min(box, 40.0);
  LaunchBody body;
  for (std::uint64_t gy = 0; gy < down; ++gy) {
    for (std::uint64_t gx = 0; gx < across; ++gx) {
      const std::uint64_t width = std::min(gw, w - gx * gw), height = std::min(gh, h - gy * gh);
      const std::uint64_t threads = width * height;
      const std::uint64_t simd_groups = (threads + kLaunchSimdWidth - 1) / kLaunchSimdWidth;
      const double x0 = kLaunchLeft + box * static_cast<double>(gx) + 2;
      const double y0 = kLaunchTop + (tall + 6) * static_cast<double>(gy);
      const double full = box - 4,
                   span = full * static_cast<double>(width) / static_cast<double>(gw);
      std::uint64_t idle = 0;
      for (std::uint64_t s = 0; s < simd_groups; ++s) {
        const std::uint64_t lanes = std::min(kLaunchSimdWidth, threads - s * kLaunchSimdWidth);
        std::uint64_t quiet = 0;
        for (std::uint64_t lane = s * kLaunchSimdWidth; lane < s * kLaunchSimdWidth + lanes;
             ++lane) {
          const std::uint64_t at = (gy * gh + lane / width) * w + gx * gw + lane % width;
          quiet += idle_between(l, at, at + 1);
        }
        idle += quiet;
        const double sx = x0 + span * static_cast<double>(s) / static_cast<double>(simd_groups);
        const double sw = span / static_cast<double>(simd_groups);
        const double busy = sw * static_cast<double>(lanes - quiet) / static_cast<double>(lanes);
        body.svg +=
            fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"/>)",
                        sx, y0, busy, tall, simd_fill(s, false));
        if (quiet > 0) {
          body.svg += fmt::format(
              R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"/>)",
              sx + busy, y0, sw - busy, tall, simd_fill(s, true));
        }
      }
      body.svg += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="none" stroke="#0d47a1" stroke-width="2"><title>threadgroup ({}, {}): {} threads in {} SIMD groups{}</title></rect>)"
          "\n",
          x0, y0, span, tall, gx, gy, threads, simd_groups,
          idle > 0 ? fmt::format(", {} idle", idle) : "");
    }
  }
  body.height = (tall + 6) * static_cast<double>(down);
  return body;
}

}  // namespace

Drawing draw_launch(const LaunchShape& l, const std::string& cell, const std::string& machine) {
  const std::uint64_t threads = l.grid[0] * l.grid[1] * l.grid[2];
  const std::uint64_t groups = ((l.grid[0] + l.group[0] - 1) / l.group[0]) *
                               ((l.grid[1] + l.group[1] - 1) / l.group[1]) *
                               ((l.grid[2] + l.group[2] - 1) / l.group[2]);
  const std::uint64_t per_group = l.group[0] * l.group[1] * l.group[2];
  const std::uint64_t idle = idle_between(l, 0, threads);
  const bool small = l.grid[2] == 1 && l.grid[0] <= kMostThreadsDrawn &&
                     l.grid[1] <= kMostThreadsDrawn && threads <= 1024;
  const LaunchBody body = small ? threads_drawn(l) : groups_drawn(l);
  const std::string shape =
      l.grid[1] == 1 && l.grid[2] == 1
          ? fmt::format("{} threads in threadgroups of {}", l.grid[0], l.group[0])
          : fmt::format("a grid of {} x {}{} threads in threadgroups of {} x {}{}", l.grid[0],
                        l.grid[1], l.grid[2] > 1 ? fmt::format(" x {}", l.grid[2]) : "", l.group[0],
                        l.group[1], l.group[2] > 1 ? fmt::format(" x {}", l.group[2]) : "");
  const std::string title =
      fmt::format("{} on {}: {} launched as {}", cell, machine, l.kernel, shape);
  const auto counted = [](std::uint64_t n, const char* noun) {
    return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
  };
  std::string description = fmt::format(
      "{} of up to {} threads, each {} of 32 (alternately shaded); {} of the {} threads touched "
      "no device memory{}.",
      counted(groups, "threadgroup"), per_group,
      counted((per_group + kLaunchSimdWidth - 1) / kLaunchSimdWidth, "SIMD group"), idle, threads,
      idle > 0 ? " (hatched): the grid's tail, which the kernel's guard stopped" : "");
  if (!small && (groups > kMostGroupsDrawn * kMostGroupsDrawn || l.grid[2] > 1))
    description += " The picture shows the first threadgroups only.";
  if (l.calls > 1) description += fmt::format(" The cell made this launch {} times.", l.calls);
  const double height = kLaunchTop + body.height + 40;
  const std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {1:.0f}" width="{0}" height="{1:.0f}" role="img" aria-labelledby="title desc">)"
      "\n"
      R"(<title id="title">{2}</title><desc id="desc">{3}</desc>)"
      "\n"
      R"(<style>text {{ font: 12px sans-serif; fill: #212121; }} .heading {{ font-weight: bold; }}</style>)"
      "\n<defs>"
      R"(<pattern id="idle" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="#eeeeee"/><path d="M0 6L6 0M-1 1L1 -1M5 7L7 5" stroke="#757575" stroke-width="1"/></pattern>)"
      "</defs>\n"
      R"(<rect width="100%" height="100%" fill="#fff"/>)"
      "\n"
      R"(<text x="8" y="20" class="heading">{2}</text>)"
      "\n{4}"
      R"(<text x="{5}" y="{6:.0f}">threadgroups outlined; SIMD groups shaded in turn; idle threads hatched</text>)"
      "\n</svg>\n",
      kLaunchWidth, height, escape(title), escape(description), body.svg, kLaunchLeft, height - 14);
  return {svg, title, description};
}

}  // namespace site
