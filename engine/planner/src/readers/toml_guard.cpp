#include "readers/toml_guard.h"

#include <vector>

#include "planner/config_error.h"

namespace planner {
namespace {

// A walk through TOML text that knows where strings, comments, keys and values are. Nesting is
// counted as toml++ builds it: every table header, inline table and array opened, and every
// dotted part of a key (`a.b.c = 1` is three tables deep).
class TomlWalk {
 public:
  TomlWalk(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  void run() {
    while (at_ < text_.size()) step(text_[at_]);
  }

 private:
  void step(char c) {
    if (c == '\n') {
      ++line_, ++at_;
      if (open_.empty()) key_ = true, dots_ = 0, started_ = false;
    } else if (c == '#') {
      at_ = std::min(text_.find('\n', at_), text_.size());
    } else if (c == '"' || c == '\'') {
      skip_string(c);
      started_ = true;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      fail(
          "a character beyond ASCII outside a string or comment; TOML allows them only in "
          "quoted strings and comments");
    } else {
      structure(c);
      ++at_;
    }
  }

  // Brackets, braces, dots, equals signs and commas: where keys and values begin and end.
  void structure(char c) {
    const bool header = c == '[' && key_ && open_.empty() && !started_;
    if (c != ' ' && c != '\t' && c != '\r') started_ = true;
    if (header || (c == '[' && !key_)) {
      open(header ? 'H' : '[');
    } else if (c == '{' && !key_) {
      open('{'), key_ = true;
    } else if ((c == ']' || c == '}') && !open_.empty()) {
      close();
    } else if (c == '.' && key_) {
      ++dots_;
      deepest();
    } else if (c == '=' && key_) {
      key_ = false;
    } else if (c == ',' && !open_.empty() && open_.back().kind == '{') {
      key_ = true, dots_ = 0;
    }
  }

  // A header, array or inline table opened: the dots of the key whose value it is stay counted
  // while it is open.
  void open(char kind) {
    open_.push_back({kind, dots_});
    outer_dots_ += dots_;
    dots_ = 0;
    deepest();
  }

  void close() {
    key_ = open_.back().kind == 'H';  // after a header, the next line's key
    dots_ = open_.back().key_dots;
    outer_dots_ -= dots_;
    open_.pop_back();
  }

  void deepest() {
    if (static_cast<int>(open_.size()) + outer_dots_ + dots_ > kDeepestToml) {
      fail("tables and values nested more than " + std::to_string(kDeepestToml) +
           " deep; a config's fields are plain values at its top");
    }
  }

  // A basic or literal string, on one line or (tripled quotes) several; an unterminated one is
  // left for toml++ to report.
  void skip_string(char quote) {
    const std::string quotes(text_.substr(at_, 3) == std::string(3, quote) ? 3 : 1, quote);
    for (at_ += quotes.size(); at_ < text_.size();) {
      if (text_[at_] == '\n' && quotes.size() == 1) return;
      if (text_.substr(at_, quotes.size()) == quotes) {
        at_ += quotes.size();
        for (int extra = 0;
             quotes.size() == 3 && extra < 2 && at_ < text_.size() && text_[at_] == quote; ++extra)
          ++at_;  // """a""""
        return;
      }
      if (text_[at_] == '\n') ++line_;
      const bool escape =
          quote == '"' && text_[at_] == '\\' && at_ + 1 < text_.size() && text_[at_ + 1] != '\n';
      at_ += escape ? 2 : 1;
    }
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw ConfigError(path_, line_, message);
  }

  std::string_view text_;
  const std::string& path_;
  std::size_t at_ = 0;
  int line_ = 1;
  struct Open {
    char kind;     // a header ('H'), an array ('[') or an inline table ('{')
    int key_dots;  // the dots of the key it is the value of
  };
  std::vector<Open> open_;  // innermost last
  int outer_dots_ = 0;      // the dots of the keys of everything open
  bool key_ = true;         // reading a key (a statement's, a header's or an inline table's)
  bool started_ = false;    // the statement has begun (a '[' then opens an array, not a header)
  int dots_ = 0;            // the dots of the key being read, or of the last one read
};

}  // namespace

void guard_toml(std::string_view text, const std::string& path) { TomlWalk(text, path).run(); }

}  // namespace planner
