#pragma once
// Internal: the preprocessing MSL kernels use. `#include <metal_stdlib>` (and the other metal_*
// headers, which the emulator always has), `#define NAME tokens` (object-like macros, expanded
// where used), `#undef` and `#pragma` (ignored); function-like macros and conditional inclusion
// are refused by name.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "lexer.h"

namespace engine::metal::detail {

class Scanner;

class Preprocessor {
 public:
  // The line whose # the scanner is at.
  void directive(Scanner& scanner);
  // Appends a token, expanding an object-like macro in place (not inside its own expansion).
  void emit(Token token);
  std::vector<Token> finish(Token end);

 private:
  void include(Scanner& scanner);
  void define(Scanner& scanner);

  std::map<std::string, std::vector<Token>> macros_;
  std::set<std::string> expanding_;
  std::vector<Token> out_;
};

}  // namespace engine::metal::detail
