// The program level of the parser: functions, program-scope constants, declarations and type
// names. MSL is C++14 with address spaces and attributes; of C++ the subset keeps functions
// and the built-in types, and refuses user types, templates and namespaces by name.

#include "parser.h"

#include <map>
#include <set>
#include <utility>

#include "parser_state.h"

namespace engine::metal::detail {
namespace {

struct NamedType {
  ScalarKind scalar;
  int width = 1;
  bool atomic = false;
};

const std::map<std::string, NamedType, std::less<>>& type_names() {
  static const auto names = [] {
    std::map<std::string, NamedType, std::less<>> all;
    for (int k = 0; k <= static_cast<int>(ScalarKind::Float); ++k) {
      const auto kind = static_cast<ScalarKind>(k);
      all[scalar_name(kind)] = {kind};
      for (int width = 2; width <= 4; ++width)
        all[scalar_name(kind) + std::to_string(width)] = {kind, width};
    }
    const std::pair<const char*, ScalarKind> aliases[] = {
        {"int8_t", ScalarKind::Char},   {"uint8_t", ScalarKind::UChar},
        {"int16_t", ScalarKind::Short}, {"uint16_t", ScalarKind::UShort},
        {"int32_t", ScalarKind::Int},   {"uint32_t", ScalarKind::UInt},
        {"int64_t", ScalarKind::Long},  {"uint64_t", ScalarKind::ULong},
        {"size_t", ScalarKind::ULong},  {"ptrdiff_t", ScalarKind::Long}};
    for (const auto& [name, kind] : aliases) all[name] = {kind};
    all["atomic_int"] = {ScalarKind::Int, 1, true};
    all["atomic_uint"] = {ScalarKind::UInt, 1, true};
    all["atomic_float"] = {ScalarKind::Float, 1, true};
    return all;
  }();
  return names;
}

// MSL constructs the emulator refuses, by the keyword that starts them.
const std::map<std::string, std::string, std::less<>> kRefusedKeywords = {
    {"template", "templates"},
    {"struct", "structs"},
    {"class", "classes"},
    {"union", "unions"},
    {"enum", "enumerations"},
    {"typedef", "typedefs"},
    {"namespace", "namespaces"},
    {"switch", "switch statements"},
    {"goto", "goto statements"},
    {"sizeof", "sizeof"},
    {"volatile", "volatile"},
    {"vertex", "vertex functions"},
    {"fragment", "fragment functions"},
    {"operator", "operator overloading"}};

bool is_unsupported_type_name(std::string_view name, std::string& why) {
  if (name == "double") {
    why = "'double' is not supported in Metal";
  } else if (name.starts_with("bfloat")) {
    why = "bfloat is not supported by the emulator's Metal front end";
  } else if (name.starts_with("packed_")) {
    why = "packed vector types (" + std::string(name) +
          ") are not supported by the emulator's Metal front end";
  } else if ((name.starts_with("float") || name.starts_with("half")) && name.size() > 3 &&
             name.find('x') != std::string_view::npos) {
    why = "matrix types (" + std::string(name) +
          ") are not supported by the emulator's Metal front end";
  } else if (name.starts_with("texture") || name.starts_with("sampler") ||
             name.starts_with("simdgroup_float") || name.starts_with("simdgroup_half") ||
             name == "array" || name == "vec") {
    why = std::string(name) + " is not supported by the emulator's Metal front end";
  }
  return !why.empty();
}

bool is_address_space(std::string_view text) {
  return text == "device" || text == "constant" || text == "threadgroup" || text == "thread";
}

AddressSpace address_space(std::string_view text) {
  if (text == "device") return AddressSpace::Device;
  if (text == "constant") return AddressSpace::Constant;
  if (text == "threadgroup") return AddressSpace::Threadgroup;
  return AddressSpace::Thread;
}

}  // namespace

void parse(const std::vector<Token>& tokens, Program& program) {
  Parser(tokens, program).parse_program();
}

ExprPtr make_expr(Expr::Kind kind, Location where) {
  auto expr = std::make_unique<Expr>();
  expr->kind = kind;
  expr->where = where;
  return expr;
}

const Token& Parser::peek(std::size_t ahead) const {
  return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
}
const Token& Parser::take() {
  const Token& token = peek();
  if (token.kind != TokenKind::End) ++pos_;
  return token;
}
bool Parser::at(std::string_view text, std::size_t ahead) const {
  const Token& token = peek(ahead);
  return (token.kind == TokenKind::Punctuator || token.kind == TokenKind::Identifier) &&
         token.text == text;
}
bool Parser::accept(std::string_view text) {
  if (!at(text)) return false;
  take();
  return true;
}
const Token& Parser::expect(std::string_view text, std::string_view message) {
  if (!at(text)) fail(peek().where, std::string(message));
  return take();
}
std::string Parser::expect_identifier(std::string_view what) {
  if (peek().kind != TokenKind::Identifier) fail(peek().where, "expected " + std::string(what));
  return take().text;
}
void Parser::unsupported(const Token& token, std::string_view construct) const {
  fail(token.where,
       std::string(construct) + " are not supported by the emulator's Metal front end");
}

Parser::Nested::Nested(Parser& parser, Location where) : parser_(parser) {
  if (++parser_.depth_ > kMaxNesting) {
    --parser_.depth_;
    throw SourceError{where,
                      "bracket nesting level exceeded maximum of " + std::to_string(kMaxNesting),
                      "fatal error"};
  }
}

void Parser::parse_program() {
  while (peek().kind != TokenKind::End) top_level();
}

void Parser::top_level() {
  if (accept(";")) return;
  if (at("using")) {
    const Token& using_token = take();
    if (!accept("namespace")) unsupported(using_token, "type aliases (using)");
    const std::string name = expect_identifier("namespace name");
    if (name != "metal") fail(using_token.where, "expected namespace name");
    expect(";", "expected ';' after namespace name");
    return;
  }
  if (peek().kind == TokenKind::Identifier) {
    const auto refused = kRefusedKeywords.find(peek().text);
    if (refused != kRefusedKeywords.end()) unsupported(peek(), refused->second);
  }
  if (!starts_type()) {
    if (peek().kind == TokenKind::Identifier)
      fail(peek().where, "unknown type name '" + peek().text + "'");
    fail(peek().where, "expected unqualified-id");
  }
  const Specifiers spec = specifiers();
  TypeRef base = type_name();
  if (peek().kind == TokenKind::Identifier && at("(", 1)) {
    const Token& name = take();
    function(spec, std::move(base), name);
    return;
  }
  StmtPtr constants = declaration(spec, std::move(base), /*at_program_scope=*/true);
  for (Declarator& d : constants->declarators) program_.constants.push_back(std::move(d));
}

bool Parser::starts_type(std::size_t ahead) const {
  const Token& token = peek(ahead);
  if (token.kind == TokenKind::Punctuator) return token.text == "[" && at("[", ahead + 1);
  if (token.kind != TokenKind::Identifier) return false;
  const std::string& t = token.text;
  if (t == "metal" && at("::", ahead + 1)) return starts_type(ahead + 2);
  std::string why;
  return type_names().contains(t) || is_address_space(t) || t == "const" || t == "constexpr" ||
         t == "kernel" || t == "inline" || t == "static" || t == "void" || t == "auto" ||
         t == "unsigned" || t == "signed" || t == "atomic" || is_unsupported_type_name(t, why);
}

Specifiers Parser::specifiers() {
  Specifiers spec;
  spec.where = peek().where;
  while (true) {
    if (at("[") && at("[", 1) && at("kernel", 2)) {  // [[kernel]]
      for (int i = 0; i < 3; ++i) take();
      expect("]", "expected ']'");
      expect("]", "expected ']'");
      spec.is_kernel = true;
    } else if (accept("kernel")) {
      spec.is_kernel = true;
    } else if (accept("inline") || accept("static")) {
    } else if (accept("const")) {
      spec.is_const = true;
    } else if (accept("constexpr")) {
      spec.is_constexpr = spec.is_const = true;
    } else if (accept("volatile")) {
      unsupported(tokens_[pos_ - 1], "volatile qualifiers");
    } else if (peek().kind == TokenKind::Identifier && is_address_space(peek().text)) {
      spec.has_space = true;
      spec.space = address_space(take().text);
    } else {
      return spec;
    }
  }
}

TypeRef Parser::type_name() {
  if (at("metal") && at("::", 1)) {
    take();
    take();
  }
  const Token& token = take();
  if (token.kind != TokenKind::Identifier) fail(token.where, "expected a type");
  TypeRef type;
  std::string why;
  if (token.text == "void") {
    type = void_type();
  } else if (token.text == "auto") {
    type = nullptr;
  } else if (token.text == "unsigned" || token.text == "signed") {
    const bool is_unsigned = token.text == "unsigned";
    ScalarKind kind = is_unsigned ? ScalarKind::UInt : ScalarKind::Int;
    if (accept("char"))
      kind = is_unsigned ? ScalarKind::UChar : ScalarKind::Char;
    else if (accept("short"))
      kind = is_unsigned ? ScalarKind::UShort : ScalarKind::Short;
    else if (accept("long"))
      kind = is_unsigned ? ScalarKind::ULong : ScalarKind::Long;
    else
      accept("int");
    type = scalar_type(kind);
  } else if (token.text == "atomic") {
    expect("<", "expected '<' after 'atomic'");
    const TypeRef value = type_name();
    expect(">", "expected '>'");
    if (!value || !value->is(Type::Kind::Scalar) ||
        (value->scalar != ScalarKind::Int && value->scalar != ScalarKind::UInt &&
         value->scalar != ScalarKind::Float))
      fail(token.where, "atomic<T> takes int, uint or float");
    type = atomic_type(value->scalar);
  } else if (const auto named = type_names().find(token.text); named != type_names().end()) {
    const NamedType& n = named->second;
    type = n.atomic ? atomic_type(n.scalar) : vector_type(n.scalar, n.width);
  } else if (is_unsupported_type_name(token.text, why)) {
    fail(token.where, why);
  } else {
    fail(token.where, "unknown type name '" + token.text + "'");
  }
  return type;
}

std::vector<ExprPtr> Parser::array_suffix() {
  std::vector<ExprPtr> sizes;
  while (at("[") && !at("[", 1)) {
    take();
    if (at("]")) unsupported(peek(), "arrays without a size");
    sizes.push_back(conditional());
    expect("]", "expected ']'");
  }
  return sizes;
}

}  // namespace engine::metal::detail
