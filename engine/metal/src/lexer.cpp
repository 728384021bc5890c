// Tokens of MSL source (lexer.h), scanned by Scanner (scanner.h); the lines that start with #
// go to the preprocessor, which also expands macros as tokens are emitted.

#include "lexer.h"

#include <array>
#include <cctype>
#include <cstdlib>
#include <utility>

#include "preprocessor.h"
#include "scanner.h"

namespace engine::metal::detail {
namespace {

// Longest first, so that "<<=" is one token and not "<<" and "=".
constexpr std::array<std::string_view, 22> kLongPunctuators = {
    "<<=", ">>=", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
    "!=",  "&&",  "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};
constexpr std::string_view kShortPunctuators = "()[]{},;:?.+-*/%&|^~!=<>";

}  // namespace

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<Token> tokenize(std::string_view source) {
  Scanner scanner(source);
  Preprocessor preprocessor;
  bool at_line_start = true;
  while (true) {
    const bool space = scanner.skip_space_and_comments();
    if (scanner.at_end()) break;
    if (scanner.peek() == '\n') {
      scanner.advance();
      at_line_start = true;
      continue;
    }
    if (at_line_start && scanner.peek() == '#') {
      preprocessor.directive(scanner);
      continue;
    }
    at_line_start = false;
    Token token = scanner.next();
    token.space_before = space;
    preprocessor.emit(std::move(token));
  }
  Token end;
  end.where = scanner.here();
  return preprocessor.finish(std::move(end));
}

void Scanner::advance() {
  if (src_[pos_] == '\n') {
    ++line_;
    column_ = 1;
  } else {
    ++column_;
  }
  ++pos_;
}

bool Scanner::skip_space_and_comments() {
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

Token Scanner::next() {
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

Token Scanner::number(Token& token) {
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
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail(here(), "exponent has no digits");
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

Token Scanner::floating_literal(Token& token, const std::string& digits,
                                const std::string& suffix) {
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

Token Scanner::integer_literal(Token& token, const std::string& digits, const std::string& suffix,
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

std::string Scanner::identifier(Location at) {
  if (!identifier_start(peek())) fail(at, "macro name must be an identifier");
  std::string name;
  while (identifier_char(peek())) {
    name += peek();
    advance();
  }
  return name;
}

void Scanner::rest_of_line() {
  while (!at_line_end()) {
    if (src_[pos_] == '\\' && peek(1) == '\n') advance();
    advance();
  }
}

}  // namespace engine::metal::detail
