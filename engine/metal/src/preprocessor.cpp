// The preprocessor lines of MSL source (preprocessor.h).

#include "preprocessor.h"

#include <utility>

#include "scanner.h"

namespace engine::metal::detail {
namespace {

// The headers of Metal's standard library; the emulator's front end always has their names.
const std::set<std::string_view> kMetalHeaders = {
    "metal_stdlib", "metal_math",       "metal_atomic",    "metal_compute",   "metal_integer",
    "metal_common", "metal_relational", "metal_simdgroup", "metal_geometric", "metal_types"};

bool is_conditional(const std::string& name) {
  return name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" || name == "else" ||
         name == "endif";
}

}  // namespace

void Preprocessor::directive(Scanner& scanner) {
  const Location hash = scanner.here();
  scanner.advance();
  scanner.skip_space_and_comments();
  const Location at = scanner.here();
  std::string name;
  while (identifier_char(scanner.peek())) {
    name += scanner.peek();
    scanner.advance();
  }
  if (name == "include") {
    include(scanner);
  } else if (name == "define") {
    define(scanner);
  } else if (name == "undef") {
    scanner.skip_space_and_comments();
    macros_.erase(scanner.identifier(scanner.here()));
  } else if (name == "pragma") {
    scanner.rest_of_line();
  } else if (name.empty()) {
    fail(hash, "invalid preprocessing directive");
  } else if (is_conditional(name)) {
    fail(at, "conditional inclusion (#" + name +
                 ") is not supported by the emulator's Metal front end");
  } else {
    fail(at, "#" + name + " is not supported by the emulator's Metal front end");
  }
}

void Preprocessor::include(Scanner& scanner) {
  scanner.skip_space_and_comments();
  const char open = scanner.peek();
  if (open != '<' && open != '"') fail(scanner.here(), "expected \"FILENAME\" or <FILENAME>");
  const char close = open == '<' ? '>' : '"';
  const Location name_at = scanner.here();
  scanner.advance();
  std::string header;
  while (scanner.peek() != close && !scanner.at_line_end()) {
    header += scanner.peek();
    scanner.advance();
  }
  if (scanner.peek() != close) fail(name_at, std::string("expected '") + close + "'");
  scanner.advance();
  if (!kMetalHeaders.contains(header))
    throw SourceError{name_at, "'" + header + "' file not found", "fatal error"};
  scanner.rest_of_line();
}

void Preprocessor::define(Scanner& scanner) {
  scanner.skip_space_and_comments();
  const std::string name = scanner.identifier(scanner.here());
  if (scanner.peek() == '(') {
    fail(scanner.here(), "function-like macros (#define " + name +
                             "(...)) are not supported by the emulator's Metal front end");
  }
  std::vector<Token> body;
  while (true) {
    const bool space = scanner.skip_space_and_comments();
    if (scanner.at_line_end()) break;
    Token token = scanner.next();
    token.space_before = space;
    body.push_back(std::move(token));
  }
  macros_[name] = std::move(body);
}

void Preprocessor::emit(Token token) {
  const auto macro = token.kind == TokenKind::Identifier ? macros_.find(token.text) : macros_.end();
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

std::vector<Token> Preprocessor::finish(Token end) {
  out_.push_back(std::move(end));
  return std::move(out_);
}

}  // namespace engine::metal::detail
