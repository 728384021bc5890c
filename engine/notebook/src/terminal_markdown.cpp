// Markdown for a terminal, from cmark-gfm's syntax tree (the same parse the site renders as
// HTML): paragraphs and list items reflowed to the terminal's width, GFM tables laid out in
// aligned columns (their cells wrapped when the table is too wide), headings underlined. With
// colour, code spans are cyan and emphasis bold or italic; without, the text reads plainly:
// no asterisks, no backticks. Raw HTML is left out, as on the site.

#include "engine/notebook/terminal_markdown.h"

#include <cmark-gfm.h>
#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "engine/notebook/markdown.h"
#include "engine/notebook/text_diff.h"

namespace engine::notebook {
namespace {

const fmt::text_style kHeading = fmt::emphasis::bold | fg(fmt::terminal_color::bright_magenta);
const fmt::text_style kSubheading = fmt::emphasis::bold | fg(fmt::terminal_color::bright_cyan);
const fmt::text_style kInlineCode = fg(fmt::terminal_color::cyan);
const fmt::text_style kStrong = fmt::emphasis::bold;
const fmt::text_style kEmphasis = fmt::emphasis::italic;
const fmt::text_style kRule = fmt::emphasis::faint;

std::string repeat(std::string_view piece, std::size_t times) {
  std::string text;
  for (std::size_t i = 0; i < times; ++i) text += piece;
  return text;
}

// `outer` with `inner` applied inside it: both emphases, and inner's colour where it has one
// (fmt refuses to combine two colours with |).
fmt::text_style nested(fmt::text_style outer, fmt::text_style inner) {
  fmt::text_style style = inner;
  if (outer.has_emphasis()) style |= fmt::text_style(outer.get_emphasis());
  if (outer.has_foreground() && !inner.has_foreground()) style |= fmt::fg(outer.get_foreground());
  return style;
}

std::string_view type_of(cmark_node* node) { return cmark_node_get_type_string(node); }

std::vector<cmark_node*> children(cmark_node* node) {
  std::vector<cmark_node*> all;
  for (cmark_node* child = cmark_node_first_child(node); child != nullptr;
       child = cmark_node_next(child)) {
    all.push_back(child);
  }
  return all;
}

// The text of a node and everything under it, walked without recursion: how a part nested too
// deeply to lay out is shown (DESIGN: bounded work on any input).
std::string flat_text(cmark_node* node) {
  std::string text;
  cmark_iter* iter = cmark_iter_new(node);
  for (cmark_event_type event; (event = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
    if (event != CMARK_EVENT_ENTER) continue;
    cmark_node* at = cmark_iter_get_node(iter);
    const cmark_node_type type = cmark_node_get_type(at);
    if (type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE || type == CMARK_NODE_CODE_BLOCK) {
      text += cmark_node_get_literal(at);
    } else if (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK ||
               type == CMARK_NODE_PARAGRAPH) {
      if (!text.empty() && text.back() != ' ') text += ' ';
    }
  }
  cmark_iter_free(iter);
  return text;
}

// Counts how deep the renderer is, for as long as it is inside one node.
class Nesting {
 public:
  explicit Nesting(int& depth) : depth_(++depth) {}
  ~Nesting() { --depth_; }
  Nesting(const Nesting&) = delete;
  Nesting& operator=(const Nesting&) = delete;

 private:
  int& depth_;
};

// Deeper than any prose needs (a quote in a list in a quote...); below it, a block or an
// inline's text is shown flat.
constexpr int kMaxNesting = 24;

class Renderer {
 public:
  explicit Renderer(const TerminalLook& look) : look_(look) {}

  std::string document(cmark_node* root) {
    std::string out;
    for (cmark_node* block : children(root)) {
      const std::string text = this->block(block, "", "");
      if (text.empty()) continue;
      if (!out.empty()) out += '\n';  // a blank line between blocks
      out += text;
    }
    return out;
  }

 private:
  // Styles every word on its own, so that wrapping, which breaks at spaces, never splits an
  // escape sequence from its text.
  std::string styled(fmt::text_style style, std::string_view text) const {
    if (!look_.color || text.empty()) return std::string(text);
    std::string out;
    std::size_t start = 0;
    while (start <= text.size()) {
      auto end = text.find(' ', start);
      if (end == std::string_view::npos) end = text.size();
      if (end > start) out += fmt::format(style, "{}", text.substr(start, end - start));
      if (end < text.size()) out += ' ';
      start = end + 1;
    }
    return out;
  }

  // The text of inline nodes: emphasis and code styled, soft breaks as spaces.
  std::string inlines(cmark_node* parent, fmt::text_style style = {}) const {
    const Nesting nesting(depth_);
    if (depth_ > kMaxNesting) return styled(style, flat_text(parent));
    std::string out;
    for (cmark_node* node : children(parent)) {
      switch (cmark_node_get_type(node)) {
        case CMARK_NODE_TEXT:
          out += styled(style, cmark_node_get_literal(node));
          break;
        case CMARK_NODE_CODE:
          out += styled(nested(style, kInlineCode), cmark_node_get_literal(node));
          break;
        case CMARK_NODE_SOFTBREAK:
          out += ' ';
          break;
        case CMARK_NODE_LINEBREAK:
          out += '\n';
          break;
        case CMARK_NODE_STRONG:
          out += inlines(node, nested(style, kStrong));
          break;
        case CMARK_NODE_EMPH:
          out += inlines(node, nested(style, kEmphasis));
          break;
        case CMARK_NODE_LINK: {
          const std::string text = inlines(node, style);
          const std::string url = cmark_node_get_url(node);
          out += text;
          if (url != text) out += " (" + url + ")";
          break;
        }
        case CMARK_NODE_HTML_INLINE:
          break;  // raw HTML is left out
        default:
          out += inlines(node, style);  // strikethrough and whatever else: its text
      }
    }
    return out;
  }

  // One block, each line ending in a newline; `first` starts its first line, `rest` the others.
  std::string block(cmark_node* node, const std::string& first, const std::string& rest) {
    const Nesting nesting(depth_);
    if (depth_ > kMaxNesting) return wrap(flat_text(node), look_.width, first, rest);
    const std::string_view type = type_of(node);
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_PARAGRAPH:
        return wrap(inlines(node), look_.width, first, rest);
      case CMARK_NODE_HEADING:
        return heading(node);
      case CMARK_NODE_LIST:
        return list(node, first, rest);
      case CMARK_NODE_CODE_BLOCK: {
        std::string out;
        for (const std::string& line : split_lines(cmark_node_get_literal(node)))
          out += rest + "    " + line + '\n';
        return out;
      }
      case CMARK_NODE_BLOCK_QUOTE: {
        std::string out;
        for (cmark_node* child : children(node)) out += block(child, rest + "│ ", rest + "│ ");
        return out;
      }
      case CMARK_NODE_THEMATIC_BREAK:
        return rest + styled(kRule, repeat("─", std::min<std::size_t>(look_.width, 40))) + '\n';
      case CMARK_NODE_HTML_BLOCK:
        return "";
      default:
        if (type == "table") return table(node, rest);
        std::string out;
        for (cmark_node* child : children(node)) out += block(child, first, rest);
        return out;
    }
  }

  std::string heading(cmark_node* node) const {
    const bool title = cmark_node_get_heading_level(node) == 1;
    const fmt::text_style style = title ? kHeading : kSubheading;
    // Wrapped to the terminal (a section's heading runs long), and ruled as wide as its widest line.
    const std::string text = wrap(inlines(node, style), look_.width);
    std::size_t widest = 0;
    for (std::size_t start = 0, end; start < text.size(); start = end + 1) {
      end = text.find('\n', start);
      widest = std::max(widest, display_width(std::string_view(text).substr(start, end - start)));
    }
    const std::string rule = repeat(title ? "═" : "─", widest);
    return text + (look_.color ? fmt::format(style, "{}", rule) : rule) + '\n';
  }

  // Items with "- " or "1. ", their text hanging under the item's first word.
  std::string list(cmark_node* node, const std::string& first, const std::string& rest) {
    const bool ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST;
    int number = cmark_node_get_list_start(node);
    std::string out;
    bool first_item = true;
    for (cmark_node* item : children(node)) {
      const std::string marker = ordered ? std::to_string(number++) + ". " : "- ";
      const std::string lead = (first_item ? first : rest) + marker;
      const std::string hang = rest + std::string(marker.size(), ' ');
      bool first_block = true;
      for (cmark_node* child : children(item)) {
        if (!first_block && cmark_node_get_type(child) == CMARK_NODE_PARAGRAPH) out += '\n';
        out += block(child, first_block ? lead : hang, hang);
        first_block = false;
      }
      first_item = false;
    }
    return out;
  }

  // A GFM table as aligned columns under an underlined header. When the columns do not fit the
  // width, the widest ones are narrowed and their cells wrap; rows that wrap are kept apart by
  // a blank line. Where even that does not fit, the rows are stacked.
  std::string table(cmark_node* node, const std::string& indent) const {
    std::vector<std::vector<std::string>> rows;
    for (cmark_node* row : children(node)) {
      std::vector<std::string> cells;
      for (cmark_node* cell : children(row)) cells.push_back(inlines(cell));
      rows.push_back(std::move(cells));
    }
    if (rows.empty()) return "";
    const std::size_t columns = rows.front().size();
    std::vector<std::size_t> widths(columns, 0), longest_word(columns, 1);
    for (const auto& row : rows) {
      for (std::size_t c = 0; c < columns && c < row.size(); ++c) {
        widths[c] = std::max(widths[c], display_width(row[c]));
        std::istringstream words(row[c]);
        for (std::string word; words >> word;)
          longest_word[c] = std::max(longest_word[c], display_width(word));
      }
    }
    const std::size_t gap = 2;
    const std::size_t room = look_.width > indent.size() + gap * (columns - 1)
                                 ? look_.width - indent.size() - gap * (columns - 1)
                                 : columns;
    while (std::accumulate(widths.begin(), widths.end(), std::size_t{0}) > room) {
      const auto widest = std::max_element(widths.begin(), widths.end());
      const std::size_t c = static_cast<std::size_t>(widest - widths.begin());
      if (*widest <= std::max<std::size_t>(longest_word[c], 8)) break;  // words stay whole
      --*widest;
    }
    if (std::accumulate(widths.begin(), widths.end(), std::size_t{0}) > room)
      return stacked(rows, indent);
    std::vector<std::vector<std::string>> laid_out;  // per row: its lines
    bool any_wraps = false;
    for (const auto& row : rows) {
      std::vector<std::vector<std::string>> cell_lines;
      std::size_t height = 1;
      for (std::size_t c = 0; c < columns; ++c) {
        cell_lines.push_back(split_lines(wrap(c < row.size() ? row[c] : "", widths[c])));
        height = std::max(height, cell_lines.back().size());
      }
      any_wraps = any_wraps || height > 1;
      std::vector<std::string> lines;
      for (std::size_t l = 0; l < height; ++l) {
        std::string line = indent;
        for (std::size_t c = 0; c < columns; ++c) {
          const std::string text = l < cell_lines[c].size() ? cell_lines[c][l] : "";
          line += text;
          if (c + 1 < columns)
            line += std::string(widths[c] - std::min(widths[c], display_width(text)) + gap, ' ');
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        lines.push_back(line);
      }
      laid_out.push_back(std::move(lines));
    }
    std::string out;
    for (std::size_t r = 0; r < laid_out.size(); ++r) {
      if (r > 1 && any_wraps) out += '\n';
      for (const std::string& line : laid_out[r]) {
        out += r == 0 ? (look_.color ? fmt::format(kStrong, "{}", line) : line) : line;
        out += '\n';
      }
      if (r == 0) {
        std::string rule = indent;
        for (std::size_t c = 0; c < columns; ++c)
          rule += repeat("─", widths[c]) + (c + 1 < columns ? std::string(gap, ' ') : "");
        out += styled(kRule, rule) + '\n';
      }
    }
    return out;
  }

  // A table too wide for the terminal even with its cells wrapped: each row as its own block,
  // one "header: cell" line per column, wrapped under itself.
  std::string stacked(const std::vector<std::vector<std::string>>& rows,
                      const std::string& indent) const {
    std::string out;
    for (std::size_t r = 1; r < rows.size(); ++r) {
      if (r > 1) out += '\n';
      for (std::size_t c = 0; c < rows.front().size(); ++c) {
        const std::string header = rows.front()[c] + ":";
        const std::string cell = c < rows[r].size() ? rows[r][c] : "";
        out += wrap((look_.color ? fmt::format(kStrong, "{}", header) : header) + " " + cell,
                    look_.width, indent, indent + "    ");
      }
    }
    return out;
  }

  TerminalLook look_;
  mutable int depth_ = 0;  // how many blocks and inlines deep the renderer is (Nesting)
};

}  // namespace

std::string render_markdown(std::string_view markdown, const TerminalLook& look) {
  const MarkdownDocument document(markdown);
  return Renderer(look).document(document.root());
}

std::string render_markdown_file(const std::string& path, const TerminalLook& look) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return render_markdown(text.str(), look);
}

}  // namespace engine::notebook
