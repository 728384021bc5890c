#pragma once
// Internal: the characters of MSL source, scanned into tokens one at a time (lexer.cpp), with
// the line and column of each; the preprocessor (preprocessor.cpp) reads its directives' lines
// through it too.

#include <string>
#include <string_view>

#include "lexer.h"

namespace engine::metal::detail {

class Scanner {
 public:
  explicit Scanner(std::string_view source) : src_(source) {}

  Location here() const { return {line_, column_}; }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  bool at_end() const { return pos_ >= src_.size(); }
  bool at_line_end() const { return at_end() || src_[pos_] == '\n'; }
  void advance();
  // Skips blanks and comments up to the next token or newline; says whether it skipped any.
  bool skip_space_and_comments();
  Token next();                         // the token that starts here
  std::string identifier(Location at);  // a macro's name
  void rest_of_line();

 private:
  Token number(Token& token);
  Token floating_literal(Token& token, const std::string& digits, const std::string& suffix);
  Token integer_literal(Token& token, const std::string& digits, const std::string& suffix,
                        bool hex);

  std::string_view src_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

bool identifier_start(char c);
bool identifier_char(char c);

}  // namespace engine::metal::detail
