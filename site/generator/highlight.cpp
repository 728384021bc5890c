#include "highlight.h"

#include <algorithm>
#include <array>

#include "text.h"

namespace site {
namespace {

constexpr std::array kCppKeywords = {
    "alignas",     "auto",      "bool",      "break",    "case",     "catch",    "char",
    "class",       "const",     "constexpr", "continue", "decltype", "default",  "delete",
    "do",          "double",    "else",      "enum",     "explicit", "extern",   "false",
    "float",       "for",       "friend",    "if",       "inline",   "int",      "long",
    "mutable",     "namespace", "new",       "noexcept", "nullptr",  "operator", "private",
    "protected",   "public",    "return",    "short",    "signed",   "sizeof",   "static",
    "static_cast", "struct",    "switch",    "template", "this",     "throw",    "true",
    "try",         "typename",  "union",     "unsigned", "using",    "virtual",  "void",
    "while"};
constexpr std::array kCppBuiltins = {"std",   "torch",   "print",           "fmt",     "TUTOR_CELL",
                                     "CHECK", "REQUIRE", "CHECK_THROWS_AS", "CHECK_EQ"};
constexpr std::array kPythonKeywords = {
    "and",    "as",   "assert", "async",  "await",  "break",   "class",    "continue",
    "def",    "del",  "elif",   "else",   "except", "finally", "for",      "from",
    "global", "if",   "import", "in",     "is",     "lambda",  "nonlocal", "not",
    "or",     "pass", "raise",  "return", "try",    "while",   "with",     "yield"};
constexpr std::array kPythonBuiltins = {"True",       "False", "None", "print", "len",
                                        "range",      "torch", "int",  "float", "str",
                                        "isinstance", "super", "self"};

template <std::size_t N>
bool contains(const std::array<const char*, N>& words, std::string_view word) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return word == w; });
}

bool is_word_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_word(char c) { return is_word_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Highlighter {
 public:
  Highlighter(std::string_view code, Language language)
      : code_(code), python_(language == Language::Python) {}

  std::string run() {
    while (i_ < code_.size()) {
      const char c = code_[i_];
      if (starts_comment()) {
        span("c", line_end());
      } else if (!python_ && c == '/' && peek(1) == '*') {
        const auto close = code_.find("*/", i_ + 2);
        span("c", close == std::string_view::npos ? code_.size() : close + 2);
      } else if (!python_ && c == '#' && at_line_start()) {
        span("p", line_end());
      } else if (c == '"' || c == '\'') {
        span("s", string_end(i_));
      } else if (is_digit(c)) {
        std::size_t end = i_;
        while (end < code_.size() &&
               (is_word(code_[end]) || code_[end] == '.' || code_[end] == '\''))
          ++end;
        span("n", end);
      } else if (is_word_start(c)) {
        word();
      } else {
        out_ += escape(code_.substr(i_, 1));
        ++i_;
      }
    }
    return out_;
  }

 private:
  char peek(std::size_t ahead) const {
    return i_ + ahead < code_.size() ? code_[i_ + ahead] : '\0';
  }

  bool starts_comment() const {
    return python_ ? code_[i_] == '#' : code_[i_] == '/' && peek(1) == '/';
  }

  bool at_line_start() const {
    for (std::size_t j = i_; j > 0; --j) {
      const char before = code_[j - 1];
      if (before == '\n') return true;
      if (before != ' ' && before != '\t') return false;
    }
    return true;
  }

  std::size_t line_end() const {
    const auto end = code_.find('\n', i_);
    return end == std::string_view::npos ? code_.size() : end;
  }

  // The end of the string literal that starts at `start`: Python's triple quotes, raw C++
  // strings R"(...)" and backslash escapes; an unterminated one ends at the line's end.
  std::size_t string_end(std::size_t start) const {
    const char quote = code_[start];
    if (python_ && code_.substr(start, 3) == std::string(3, quote)) {
      const auto close = code_.find(std::string(3, quote), start + 3);
      return close == std::string_view::npos ? code_.size() : close + 3;
    }
    if (!python_ && quote == '"' && start > 0 && code_[start - 1] == 'R') {
      const auto open = code_.find('(', start);
      if (open != std::string_view::npos) {
        const std::string closing =
            ")" + std::string(code_.substr(start + 1, open - start - 1)) + "\"";
        const auto close = code_.find(closing, open);
        return close == std::string_view::npos ? code_.size() : close + closing.size();
      }
    }
    for (std::size_t j = start + 1; j < code_.size(); ++j) {
      if (code_[j] == '\\') {
        ++j;
      } else if (code_[j] == quote) {
        return j + 1;
      } else if (code_[j] == '\n') {
        return j;
      }
    }
    return code_.size();
  }

  void word() {
    std::size_t end = i_;
    while (end < code_.size() && is_word(code_[end])) ++end;
    const std::string_view text = code_.substr(i_, end - i_);
    // Python's string prefixes (f"", r'', b"") and C++'s raw strings belong to their string.
    if (end < code_.size() && (code_[end] == '"' || code_[end] == '\'') && text.size() <= 2 &&
        text.find_first_not_of(python_ ? "fFrRbBuU" : "uUL8R") == std::string_view::npos) {
      span("s", string_end(end));
      return;
    }
    const bool keyword = python_ ? contains(kPythonKeywords, text) : contains(kCppKeywords, text);
    const bool builtin = python_ ? contains(kPythonBuiltins, text) : contains(kCppBuiltins, text);
    if (keyword) {
      span("k", end);
    } else if (builtin) {
      span("b", end);
    } else {
      out_ += escape(text);
      i_ = end;
    }
  }

  void span(const char* css_class, std::size_t end) {
    out_ += "<span class=\"";
    out_ += css_class;
    out_ += "\">";
    out_ += escape(code_.substr(i_, end - i_));
    out_ += "</span>";
    i_ = end;
  }

  std::string_view code_;
  bool python_;
  std::size_t i_ = 0;
  std::string out_;
};

}  // namespace

std::string highlight(std::string_view code, Language language) {
  return Highlighter(code, language).run();
}

}  // namespace site
