#pragma once
// The frame every page shares: the top bar (course name, search, the machine switch on lesson
// pages), the table of contents in course order, and the previous/next links.

#include <string>
#include <vector>

#include "engine/machine.h"
#include "prose.h"
#include "theme.h"

namespace site {

struct PageEntry {
  std::string page;     // "05_1_timing_gpu_work.html"
  std::string title;    // "Lesson 5 · Timing and synchronization"
  std::string group;    // "Lessons", "Labs", "Check"; "" for the home page
  bool nested = false;  // a section of a lesson in sections, shown under its lesson
};

// The pages in reading order.
using SiteMap = std::vector<PageEntry>;

struct Page {
  std::string file;  // which entry of the site map this is
  std::string body;
  std::vector<Heading> sections{};  // shown under the page's entry in the table of contents
  std::vector<const engine::MachineProfile*> machines{};  // the switch's choices; none: no switch
};

// The page in its frame (the theme's page.html).
std::string layout(const Page& page, const SiteMap& map, const Theme& theme);

}  // namespace site
