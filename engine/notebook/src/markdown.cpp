#include "engine/notebook/markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

namespace engine::notebook {
namespace {

// GitHub's extensions to CommonMark that lesson prose uses or may use.
constexpr const char* kExtensions[] = {"table", "strikethrough", "autolink"};

// cmark returns renderings in malloc'd buffers.
std::string take(char* rendered) {
  if (rendered == nullptr) throw std::bad_alloc();
  const std::unique_ptr<char, decltype(&std::free)> owner(rendered, &std::free);
  return std::string(rendered);
}

}  // namespace

MarkdownDocument::MarkdownDocument(std::string_view text) {
  cmark_gfm_core_extensions_ensure_registered();
  parser_ = cmark_parser_new(CMARK_OPT_DEFAULT);
  if (parser_ == nullptr) throw std::bad_alloc();
  for (const char* name : kExtensions) {
    if (cmark_syntax_extension* extension = cmark_find_syntax_extension(name)) {
      cmark_parser_attach_syntax_extension(parser_, extension);
    }
  }
  cmark_parser_feed(parser_, text.data(), text.size());
  root_ = cmark_parser_finish(parser_);
  if (root_ == nullptr) {
    release();
    throw std::bad_alloc();
  }
}

MarkdownDocument::~MarkdownDocument() { release(); }

MarkdownDocument::MarkdownDocument(MarkdownDocument&& other) noexcept
    : parser_(std::exchange(other.parser_, nullptr)), root_(std::exchange(other.root_, nullptr)) {}

MarkdownDocument& MarkdownDocument::operator=(MarkdownDocument&& other) noexcept {
  if (this != &other) {
    release();
    parser_ = std::exchange(other.parser_, nullptr);
    root_ = std::exchange(other.root_, nullptr);
  }
  return *this;
}

void MarkdownDocument::release() noexcept {
  if (root_ != nullptr) cmark_node_free(root_);
  if (parser_ != nullptr) cmark_parser_free(parser_);
  root_ = nullptr;
  parser_ = nullptr;
}

std::string MarkdownDocument::html() const {
  return take(
      cmark_render_html(root_, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(parser_)));
}

std::string MarkdownDocument::plain_text() const {
  return take(cmark_render_plaintext(root_, CMARK_OPT_DEFAULT, 0));
}

}  // namespace engine::notebook
