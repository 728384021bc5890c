#pragma once
// The picture of one compile_shader kernel launch, as lesson 10 explains a launch: the grid of
// threads cut into threadgroups, each threadgroup into SIMD groups of 32 (thread l of a group is
// lane l % 32 of SIMD group l / 32), and the threads that did nothing, hatched: the grid's tail,
// which a guard stopped before it touched device memory. Drawn from the launches a cell's
// --outputs lists (engine/notebook/src/cell_outputs.h).
//
// A one-dimensional grid is a row of threadgroups, each a bar of its SIMD groups; a
// two-dimensional one of at most 64 x 64 threads is drawn thread by thread, larger ones
// threadgroup by threadgroup. Readable without colour: SIMD groups alternate two fills, idle
// threads are hatched, threadgroups have a heavy outline; the <desc> says it all in words.

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "drawing.h"

namespace site {

struct LaunchShape {
  std::string kernel;
  std::array<std::uint64_t, 3> grid{};   // threads (width, height, depth)
  std::array<std::uint64_t, 3> group{};  // threads per threadgroup, as asked
  int calls = 1;                         // how many calls made this same launch
  // Ranges [first, end) of the grid's threads, x fastest, that touched no device memory.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> idle{};
};

Drawing draw_launch(const LaunchShape& launch, const std::string& cell, const std::string& machine);

}  // namespace site
