#pragma once
// Markdown as GitHub renders it: CommonMark with GFM's tables, strikethrough and autolinks,
// parsed by cmark-gfm (github.com/github/cmark-gfm). One parse serves every view of the
// lessons' prose: the site renders the document as HTML, the terminal view walks its syntax
// tree (cmark-gfm's own, through <cmark-gfm.h> and <cmark-gfm-core-extensions.h>).

#include <string>
#include <string_view>

struct cmark_node;
struct cmark_parser;

namespace engine::notebook {

class MarkdownDocument {
 public:
  // Markdown has no syntax errors: any text parses.
  explicit MarkdownDocument(std::string_view text);
  ~MarkdownDocument();
  MarkdownDocument(MarkdownDocument&& other) noexcept;
  MarkdownDocument& operator=(MarkdownDocument&& other) noexcept;
  MarkdownDocument(const MarkdownDocument&) = delete;
  MarkdownDocument& operator=(const MarkdownDocument&) = delete;

  // The document node of the syntax tree, owned by this object. A table's nodes belong to the
  // GFM extension: cmark_node_get_type_string() calls them "table", "table_header" (the header
  // row), "table_row" and "table_cell", and cmark_gfm_extensions_get_table_alignments() gives
  // the columns' alignments.
  cmark_node* root() const noexcept { return root_; }

  // An HTML fragment. Raw HTML written in the Markdown is left out (cmark's safe default).
  std::string html() const;
  // The text without its markup, for a search index.
  std::string plain_text() const;

 private:
  void release() noexcept;

  cmark_parser* parser_ = nullptr;  // owns the extensions the renderers need
  cmark_node* root_ = nullptr;
};

}  // namespace engine::notebook
