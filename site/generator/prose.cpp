#include "prose.h"

#include <cmark-gfm.h>

#include "engine/notebook/markdown.h"
#include "text.h"

namespace site {
namespace {

std::string text_of(cmark_node* node) {
  std::string text;
  for (cmark_node* child = cmark_node_first_child(node); child != nullptr;
       child = cmark_node_next(child)) {
    const char* literal = cmark_node_get_literal(child);
    text += literal != nullptr ? std::string(literal) : text_of(child);
  }
  return text;
}

bool is_relative(const std::string& url) {
  return !url.empty() && url.front() != '#' && url.find("://") == std::string::npos &&
         url.rfind("mailto:", 0) != 0;
}

}  // namespace

std::string PageIds::claim(const std::string& wanted) {
  std::string id = wanted;
  for (int n = 2; !used_.insert(id).second; ++n) id = wanted + "-" + std::to_string(n);
  return id;
}

Prose render_prose(const std::string& markdown, PageIds& ids, const LinkRewriter& rewrite) {
  const engine::notebook::MarkdownDocument document(markdown);
  Prose prose;
  cmark_iter* iter = cmark_iter_new(document.root());
  for (cmark_event_type event; (event = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
    cmark_node* node = cmark_iter_get_node(iter);
    if (event != CMARK_EVENT_ENTER) continue;
    const cmark_node_type type = cmark_node_get_type(node);
    if (type == CMARK_NODE_HEADING) {
      const std::string text = text_of(node);
      prose.headings.push_back({cmark_node_get_heading_level(node), text, ids.claim(slug(text))});
    } else if ((type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE) && rewrite) {
      const std::string url = cmark_node_get_url(node) != nullptr ? cmark_node_get_url(node) : "";
      if (is_relative(url)) {
        const std::string changed = rewrite(url);
        if (!changed.empty()) cmark_node_set_url(node, changed.c_str());
      }
    }
  }
  cmark_iter_free(iter);
  // cmark writes headings as bare <hN> tags, in document order; give each its id.
  const std::string html = document.html();
  std::size_t at = 0;
  for (const Heading& heading : prose.headings) {
    const std::string tag = "<h" + std::to_string(heading.level) + ">";
    const auto found = html.find(tag, at);
    if (found == std::string::npos) break;
    prose.html += html.substr(at, found - at) + "<h" + std::to_string(heading.level) + " id=\"" +
                  heading.id + "\">";
    at = found + tag.size();
  }
  prose.html += html.substr(at);
  prose.plain_text = document.plain_text();
  return prose;
}

std::string inline_html(const std::string& markdown) {
  std::string html = engine::notebook::MarkdownDocument(markdown).html();
  while (!html.empty() && html.back() == '\n') html.pop_back();
  const bool one_paragraph = html.rfind("<p>", 0) == 0 && html.size() >= 7 &&
                             html.compare(html.size() - 4, 4, "</p>") == 0 &&
                             html.find("<p>", 3) == std::string::npos;
  return one_paragraph ? html.substr(3, html.size() - 7) : html;
}

}  // namespace site
