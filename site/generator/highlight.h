#pragma once
// A small syntax highlighter for the two languages of the course's code: C++ (the lessons)
// and Python (their twins). It marks comments, strings, numbers, keywords, preprocessor lines
// and a few well-known names with <span class="..."> around escaped text; everything else
// stays plain. It is a lexer of tokens, not a parser: good enough to read by, never to check.

#include <string>
#include <string_view>

namespace site {

enum class Language { Cpp, Python };

// HTML for the inside of a <pre><code>: escaped, with spans of the classes
// c (comment), s (string), n (number), k (keyword), p (preprocessor), b (built-in name).
std::string highlight(std::string_view code, Language language);

}  // namespace site
