// The Markdown wrapper of the notebook runtime: cmark-gfm with GitHub's tables, a syntax tree
// the terminal view can walk, HTML and plain text, and ownership that moves.

#include "engine/notebook/markdown.h"

#include <cmark-gfm.h>
#include <doctest/doctest.h>

#include <string>
#include <utility>

using engine::notebook::MarkdownDocument;

namespace {

constexpr const char* kProse =
    "## Sync points\n"
    "\n"
    "A **kernel** is queued; `synchronize()` waits.\n"
    "\n"
    "| call | waits |\n"
    "|---|---|\n"
    "| `item()` | yes |\n";

// How many nodes of a type ("table", "strong", ...) the tree holds.
int count(cmark_node* root, const std::string& type) {
  int n = 0;
  cmark_iter* iter = cmark_iter_new(root);
  for (cmark_event_type e; (e = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
    if (e == CMARK_EVENT_ENTER && cmark_node_get_type_string(cmark_iter_get_node(iter)) == type)
      ++n;
  }
  cmark_iter_free(iter);
  return n;
}

}  // namespace

TEST_CASE("a GFM table renders as an HTML table, with emphasis and code inline") {
  const std::string html = MarkdownDocument(kProse).html();
  CHECK(html.find("<h2>Sync points</h2>") != std::string::npos);
  CHECK(html.find("<strong>kernel</strong>") != std::string::npos);
  CHECK(html.find("<table>") != std::string::npos);
  CHECK(html.find("<th>call</th>") != std::string::npos);
  CHECK(html.find("<td><code>item()</code></td>") != std::string::npos);
}

TEST_CASE("the syntax tree holds the table as GFM nodes, for views that walk it") {
  const MarkdownDocument document(kProse);
  REQUIRE(document.root() != nullptr);
  CHECK(cmark_node_get_type(document.root()) == CMARK_NODE_DOCUMENT);
  CHECK(count(document.root(), "table") == 1);
  CHECK(count(document.root(), "table_header") == 1);
  CHECK(count(document.root(), "table_row") == 1);
  CHECK(count(document.root(), "table_cell") == 4);
  CHECK(count(document.root(), "strong") == 1);
}

TEST_CASE(
    "raw HTML in the prose is left out of the page, and plain text drops every tag and mark") {
  const MarkdownDocument document("Hello <script>alert(1)</script> **world**\n");
  CHECK(document.html().find("<script>") == std::string::npos);
  CHECK(document.plain_text() == "Hello alert(1) world\n");
}

TEST_CASE("a moved document keeps its tree and the moved-from one owns nothing") {
  MarkdownDocument first("# Title\n");
  cmark_node* root = first.root();
  MarkdownDocument second(std::move(first));
  CHECK(second.root() == root);
  CHECK(first.root() ==
        nullptr);  // NOLINT(bugprone-use-after-move): the state after a move is the point
  MarkdownDocument third("other\n");
  third = std::move(second);
  CHECK(third.root() == root);
  CHECK(third.html() == "<h1>Title</h1>\n");
}
