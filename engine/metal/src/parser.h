#pragma once
// Internal: tokens to a syntax tree (ast.h), by recursive descent over the MSL subset. Throws
// SourceError at the first error, with clang's wording where clang has one ("expected ';'
// after expression"), and naming the construct where the emulator refuses MSL it does not
// support (templates, structs, switch, ...).

#include <memory>
#include <vector>

#include "ast.h"
#include "lexer.h"

namespace engine::metal::detail {

// Fills `program`'s functions and program-scope constants from `tokens`.
void parse(const std::vector<Token>& tokens, Program& program);

}  // namespace engine::metal::detail
