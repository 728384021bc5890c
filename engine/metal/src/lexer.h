#pragma once
// Internal: Metal Shading Language source to tokens, preprocessed (preprocessor.h).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "source_text.h"

namespace engine::metal::detail {

enum class TokenKind : std::uint8_t { Identifier, Integer, Floating, Punctuator, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;  // as written (a punctuator's spelling, an identifier's name)
  Location where;
  bool space_before = false;  // whether whitespace separates it from the previous token
  // Integer: its value and suffixes; Floating: its value and suffix ('f', 'h' or none)
  std::uint64_t integer = 0;
  bool is_unsigned = false;
  bool is_long = false;
  double floating = 0;
  char suffix = 0;
};

// Every token of `source`, ending with an End token; throws SourceError at the first error.
std::vector<Token> tokenize(std::string_view source);

}  // namespace engine::metal::detail
