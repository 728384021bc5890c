#include "search_index.h"

#include <nlohmann/json.hpp>

namespace site {
namespace {

// Runs of spaces and newlines become one space: the index is for matching, not reading.
std::string squeeze(const std::string& text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    const bool blank = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (blank) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    out += c;
    space = false;
  }
  return out;
}

}  // namespace

std::string search_index_script(const std::vector<SearchEntry>& entries) {
  nlohmann::json index = nlohmann::json::array();
  for (const SearchEntry& e : entries) {
    index.push_back(
        {{"title", e.title}, {"page", e.page}, {"url", e.url}, {"text", squeeze(e.text)}});
  }
  return "// Generated with the site: the search index of every page.\nwindow.COURSE_SEARCH_INDEX = " +
         index.dump() + ";\n";
}

}  // namespace site
