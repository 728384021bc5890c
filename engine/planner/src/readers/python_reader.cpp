// nanoGPT's config/*.py files: train.py's globals, assigned one per line. A value is read where it
// is a literal the planner can take (True/False, a number, a quoted string, or a product of
// integers such as 5 * 8); imports, comments and other statements are passed over.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "readers/readers.h"

namespace planner {
namespace {

// The line without a trailing comment (a # outside quotes).
std::string without_comment(const std::string& line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (quote != 0) {
      if (line[i] == quote) quote = 0;
    } else if (line[i] == '\'' || line[i] == '"') {
      quote = line[i];
    } else if (line[i] == '#') {
      return line.substr(0, i);
    }
  }
  return line;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

bool is_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A product of integers (gradient_accumulation_steps = 5 * 8), if `text` is one that fits int64.
std::optional<std::int64_t> product(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string unsigned_text =
      !text.empty() && (text[0] == '-' || text[0] == '+') ? text.substr(1) : text;
  if (trimmed(unsigned_text).empty()) return std::nullopt;
  std::int64_t result = negative ? -1 : 1;
  std::istringstream factors(unsigned_text);
  for (std::string factor; std::getline(factors, factor, '*');) {
    factor = trimmed(factor);
    if (!is_digits(factor) || factor.size() > 18) return std::nullopt;  // fits an int64
    const std::int64_t value = std::stoll(factor);
    if (value != 0 && std::abs(result) > std::numeric_limits<std::int64_t>::max() / value)
      return std::nullopt;
    result *= value;
  }
  return result;
}

// A Python literal the planner reads: True/False, a quoted string, an integer or a product of
// integers, or a number.
std::optional<FieldValue> python_value(const std::string& text) {
  if (text == "True") return FieldValue(true);
  if (text == "False") return FieldValue(false);
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
      text.back() == text.front() && text.find(text.front(), 1) == text.size() - 1) {
    return FieldValue(text.substr(1, text.size() - 2));
  }
  if (const auto integer = product(text)) return FieldValue(*integer);
  double number = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, number);
  if (error == std::errc() && stop == end && text.find_first_of("0123456789") != std::string::npos)
    return FieldValue(number);
  return std::nullopt;
}

bool is_name(std::string_view text) {
  return !text.empty() && !(text[0] >= '0' && text[0] <= '9') &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

}  // namespace

ConfigFields python_fields(std::string_view text, const std::string& path) {
  std::vector<Field> fields;
  std::istringstream in{std::string(text)};
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string code = trimmed(without_comment(line));
    const std::size_t equals = code.find('=');
    if (equals == std::string::npos || code.compare(equals, 2, "==") == 0)
      continue;  // imports, blank lines
    const std::string name = trimmed(code.substr(0, equals));
    if (!is_name(name)) continue;  // augmented or indexed assignments are not train.py globals
    Field f{name, number, std::nullopt, trimmed(code.substr(equals + 1)), ""};
    f.value = python_value(f.as_written);
    if (!f.value) {
      f.unreadable = "cannot read '" + shortened(f.as_written) +
                     "' (the planner reads numbers, True/False, quoted strings and products such "
                     "as 5 * 8)";
    }
    fields.push_back(std::move(f));
  }
  return ConfigFields(path, std::move(fields), /*open=*/true);
}

}  // namespace planner
