#pragma once
// A picture the site draws: the SVG, and the same content in words for whoever cannot see it.

#include <string>

namespace site {

struct Drawing {
  std::string svg;
  std::string title;        // the SVG's <title>
  std::string description;  // the SVG's <desc>: what the picture shows, in words
};

// A round step for an axis's ticks, 1, 2 or 5 times a power of ten, giving about `ticks` of
// them over `range`.
double tick_step(double range, int ticks);

}  // namespace site
