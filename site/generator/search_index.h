#pragma once
// The search index, built with the site: one entry per section of every page, written as a
// script (search-index.js) that the pages load, so that search works from file:// with
// nothing fetched. theme/course.js matches the words of a query against it.

#include <string>
#include <vector>

namespace site {

struct SearchEntry {
  std::string title;  // the section's heading
  std::string page;   // the page's title
  std::string url;    // "05_timing_and_synchronization.html#warm-up"
  std::string text;   // its words: prose, cell names and code
};

std::string search_index_script(const std::vector<SearchEntry>& entries);

}  // namespace site
