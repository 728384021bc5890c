// Tokens and the preprocessor lines of MSL source. The preprocessor is as small as kernels
// need: a library that includes a header the emulator does not know, or uses conditional
// inclusion or a function-like macro, gets a diagnostic naming it.

#include "lexer.h"

#include <array>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

namespace engine::metal::detail {
namespace {

// The headers of Metal's standard library; the emulator's front end always has their names.
const std::set<std::string_view> kMetalHeaders = {
    "metal_stdlib", "metal_math",       "metal_atomic",    "metal_compute",   "metal_integer",
    "metal_common", "metal_relational", "metal_simdgroup", "metal_geometric", "metal_types"};

// Longest first, so that "<<=" is one token and not "<<" and "=".
constexpr std::array<std::string_view, 22> kLongPunctuators = {
    "<<=", ">>=", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
    "!=",  "&&",  "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};
constexpr std::string_view kShortPunctuators = "()[]{},;:?.+-*/%&|^~!=<>";

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}

  std::vector<Token> run() {
    std::vector<Token> line_tokens;
    bool at_line_start = true;
    while (true) {
      const bool space = skip_space_and_comments();
      if (pos_ >= src_.size()) break;
      if (src_[pos_] == '\n') {
        advance();
        at_line_start = true;
        continue;
      }
      if (at_line_start && src_[pos_] == '#') {
        directive();
        continue;
      }
      at_line_start = false;
      Token token = next();
      token.space_before = space;
      emit(std::move(token));
    }
    Token end;
    end.where = here();
    out_.push_back(end);
    return std::move(out_);
  }

 private:
  Location here() const { return {line_, column_}; }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  void advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  // Skips blanks and comments up to the next token or newline; says whether it skipped any.
  bool skip_space_and_comments() {
    const std::size_t start = pos_;
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '\\' && peek(1) == '\n') {  // a continued line
        advance();
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        const Location opened = here();
        advance();
        advance();
        while (pos_ < src_.size() && !(src_[pos_] == '*' && peek(1) == '/')) advance();
        if (pos_ >= src_.size()) fail(opened, "unterminated /* comment");
        advance();
        advance();
      } else {
        break;
      }
    }
    return pos_ != start;
  }

  Token next() {
    Token token;
    token.where = here();
    const char c = src_[pos_];
    if (identifier_start(c)) {
      const std::size_t start = pos_;
      while (pos_ < src_.size() && identifier_char(src_[pos_])) advance();
      token.kind = TokenKind::Identifier;
      token.text = std::string(src_.substr(start, pos_ - start));
      return token;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      return number(token);
    }
    for (const std::string_view p : kLongPunctuators) {
      if (src_.substr(pos_, p.size()) == p) {
        for (std::size_t i = 0; i < p.size(); ++i) advance();
        token.kind = TokenKind::Punctuator;
        token.text = std::string(p);
        return token;
      }
    }
    if (kShortPunctuators.find(c) != std::string_view::npos) {
      advance();
      token.kind = TokenKind::Punctuator;
      token.text = std::string(1, c);
      return token;
    }
    if (c == '"' || c == '\'') fail(token.where, "string and character literals are not supported");
    fail(token.where, std::string("unexpected character '") + c + "'");
  }

  Token number(Token& token) {
    const std::size_t start = pos_;
    const bool hex = peek() == '0' && (peek(1) == 'x' || peek(1) == 'X');
    bool floating = false;
    if (hex) {
      advance();
      advance();
      while (std::isxdigit(static_cast<unsigned char>(peek()))) advance();
    } else {
      while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
      if (peek() == '.') {
        floating = true;
        advance();
        while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
      }
      if (peek() == 'e' || peek() == 'E') {
        floating = true;
        advance();
        if (peek() == '+' || peek() == '-') advance();
        if (!std::isdigit(static_cast<unsigned char>(peek())))
          fail(here(), "exponent has no digits");
        while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
      }
    }
    const std::string digits(src_.substr(start, pos_ - start));
    const std::size_t suffix_start = pos_;
    while (identifier_char(peek())) advance();
    const std::string suffix(src_.substr(suffix_start, pos_ - suffix_start));
    token.text = digits + suffix;
    if (floating) return floating_literal(token, digits, suffix);
    return integer_literal(token, digits, suffix, hex);
  }

  Token floating_literal(Token& token, const std::string& digits, const std::string& suffix) {
    token.kind = TokenKind::Floating;
    if (suffix == "f" || suffix == "F") {
      token.suffix = 'f';
    } else if (suffix == "h" || suffix == "H") {
      token.suffix = 'h';
    } else if (!suffix.empty()) {
      fail(token.where, "invalid suffix '" + suffix + "' on floating constant");
    }
    // MSL has no double: an unsuffixed floating literal is a float. strtof rounds the decimal
    // correctly (IEEE 754), the same on every host.
    token.floating = std::strtof(digits.c_str(), nullptr);
    return token;
  }

  Token integer_literal(Token& token, const std::string& digits, const std::string& suffix,
                        bool hex) {
    token.kind = TokenKind::Integer;
    for (const char s : suffix) {
      if (s == 'u' || s == 'U') {
        token.is_unsigned = true;
      } else if (s == 'l' || s == 'L') {
        token.is_long = true;
      } else {
        fail(token.where, "invalid suffix '" + suffix + "' on integer constant");
      }
    }
    const std::string body = hex ? digits.substr(2) : digits;
    if (body.empty()) fail(token.where, "invalid integer constant '" + digits + "'");
    std::uint64_t value = 0;
    const std::uint64_t base = hex ? 16 : 10;
    for (const char d : body) {
      const std::uint64_t digit = std::isdigit(static_cast<unsigned char>(d))
                                      ? static_cast<std::uint64_t>(d - '0')
                                      : static_cast<std::uint64_t>(std::tolower(d) - 'a' + 10);
      if (value > (~std::uint64_t{0} - digit) / base)
        fail(token.where, "integer literal is too large to be represented in any integer type");
      value = value * base + digit;
    }
    token.integer = value;
    return token;
  }

  // A preprocessor line: its name, then what the directive needs of the rest of the line.
  void directive() {
    const Location hash = here();
    advance();
    skip_space_and_comments();
    const Location at = here();
    std::string name;
    while (identifier_char(peek())) {
      name += peek();
      advance();
    }
    if (name == "include") {
      include(at);
    } else if (name == "define") {
      define();
    } else if (name == "undef") {
      skip_space_and_comments();
      macros_.erase(identifier(here()));
    } else if (name == "pragma") {
      rest_of_line();
    } else if (name.empty()) {
      fail(hash, "invalid preprocessing directive");
    } else if (name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" ||
               name == "else" || name == "endif") {
      fail(at, "conditional inclusion (#" + name +
                   ") is not supported by the emulator's Metal front end");
    } else {
      fail(at, "#" + name + " is not supported by the emulator's Metal front end");
    }
  }

  void include(Location at) {
    skip_space_and_comments();
    const char open = peek();
    if (open != '<' && open != '"') fail(here(), "expected \"FILENAME\" or <FILENAME>");
    const char close = open == '<' ? '>' : '"';
    const Location name_at = here();
    advance();
    std::string header;
    while (peek() != close && peek() != '\n' && peek() != '\0') {
      header += peek();
      advance();
    }
    if (peek() != close) fail(name_at, std::string("expected '") + close + "'");
    advance();
    if (!kMetalHeaders.contains(header)) {
      throw SourceError{name_at, "'" + header + "' file not found", "fatal error"};
    }
    (void)at;
    rest_of_line();
  }

  void define() {
    skip_space_and_comments();
    const Location at = here();
    const std::string name = identifier(at);
    if (peek() == '(') {
      fail(here(), "function-like macros (#define " + name +
                       "(...)) are not supported by the emulator's Metal front end");
    }
    std::vector<Token> body;
    while (true) {
      const bool space = skip_space_and_comments();
      if (pos_ >= src_.size() || src_[pos_] == '\n') break;
      Token token = next();
      token.space_before = space;
      body.push_back(std::move(token));
    }
    macros_[name] = std::move(body);
  }

  std::string identifier(Location at) {
    if (!identifier_start(peek())) fail(at, "macro name must be an identifier");
    std::string name;
    while (identifier_char(peek())) {
      name += peek();
      advance();
    }
    return name;
  }

  void rest_of_line() {
    while (pos_ < src_.size() && src_[pos_] != '\n') {
      if (src_[pos_] == '\\' && peek(1) == '\n') advance();
      advance();
    }
  }

  // Appends a token, expanding an object-like macro in place (not inside its own expansion).
  void emit(Token token) {
    const auto macro =
        token.kind == TokenKind::Identifier ? macros_.find(token.text) : macros_.end();
    if (macro == macros_.end() || expanding_.contains(token.text)) {
      out_.push_back(std::move(token));
      return;
    }
    expanding_.insert(token.text);
    bool first = true;
    for (Token expanded : macro->second) {
      expanded.where = token.where;  // diagnostics point at the macro's use
      if (first) expanded.space_before = token.space_before;
      first = false;
      emit(std::move(expanded));
    }
    expanding_.erase(token.text);
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
  std::map<std::string, std::vector<Token>> macros_;
  std::set<std::string> expanding_;
  std::vector<Token> out_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) { return Lexer(source).run(); }

}  // namespace engine::metal::detail
