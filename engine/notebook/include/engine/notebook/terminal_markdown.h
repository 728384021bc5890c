#pragma once
// Markdown as a terminal shows it: the lessons' prose cells, the glossary, quiz text. Headings
// are underlined (= for a title, - for a section) so they stand out with or without colour.

#include <string>
#include <string_view>

#include "engine/notebook/terminal_text.h"

namespace engine::notebook {

// The Markdown text rendered for a terminal, each line ending in a newline.
std::string render_markdown(std::string_view markdown, const TerminalLook& look);
// The Markdown file at `path` rendered; throws std::runtime_error naming the file if it cannot
// be read.
std::string render_markdown_file(const std::string& path, const TerminalLook& look);

}  // namespace engine::notebook
