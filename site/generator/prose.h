#pragma once
// Markdown on the site's pages, through the course's cmark-gfm wrapper: headings get ids the
// table of contents and search link to, and relative links are rewritten to the pages and
// files the site has.

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace site {

// The ids already used on one page, so that every heading and cell gets its own.
class PageIds {
 public:
  // `wanted`, or `wanted-2`, `wanted-3`... if it is taken.
  std::string claim(const std::string& wanted);

 private:
  std::set<std::string> used_;
};

struct Heading {
  int level = 0;
  std::string text;
  std::string id;
};

struct Prose {
  std::string html;
  std::vector<Heading> headings;
  std::string plain_text;  // for the search index
};

// Given a link's destination as written, the destination on the site ("" keeps it as written).
using LinkRewriter = std::function<std::string(const std::string& destination)>;

Prose render_prose(const std::string& markdown, PageIds& ids, const LinkRewriter& rewrite = {});
// A short piece of Markdown (a quiz prompt, an option) as inline HTML, without a paragraph.
std::string inline_html(const std::string& markdown);

}  // namespace site
