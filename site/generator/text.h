#pragma once
// Text for the site: HTML escaping, the ids the pages link to, lines joined, files read and
// written.

#include <string>
#include <string_view>
#include <vector>

namespace site {

// Text for an element's content or a double-quoted attribute: & < > " ' escaped.
std::string escape(std::string_view text);
// "The bill of one training step" -> "the-bill-of-one-training-step": an id from a heading.
std::string slug(std::string_view text);
// The lines of a cell as one text, each line ending in a newline.
std::string joined(const std::vector<std::string>& lines);
// Reads a whole file; throws std::runtime_error naming the file when it cannot.
std::string read_text(const std::string& path);
// Writes a file, creating its directory; throws std::runtime_error naming the file.
void write_text(const std::string& path, std::string_view text);

}  // namespace site
