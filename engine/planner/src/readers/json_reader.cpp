// A Hugging Face config.json, through nlohmann::json: the top-level fields with a number, a
// boolean or a string; `id2label` read as the number of labels it names and `architectures` as
// its class names joined by commas; anything else kept only to be refused if a family reads it.

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "readers/readers.h"

namespace planner {
namespace {

// The line of a key's first appearance, for messages (nlohmann::json keeps no positions).
int json_line(std::string_view text, const std::string& key) {
  const std::size_t at = text.find("\"" + key + "\"");
  if (at == std::string_view::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

Field field_of(std::string_view text, const std::string& key, const nlohmann::json& node) {
  Field f{key, json_line(text, key), std::nullopt, "", ""};
  if (node.is_number_unsigned() &&
      node.get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()}) {
    f.value = node.get<double>();  // beyond int64: refused as the number it is, never wrapped
  } else if (node.is_number_integer()) {
    f.value = node.get<std::int64_t>();
  } else if (node.is_number_float()) {
    f.value = node.get<double>();
  } else if (node.is_boolean()) {
    f.value = node.get<bool>();
  } else if (node.is_string()) {
    f.value = node.get<std::string>();
  } else if (key == "id2label" && node.is_object()) {
    f.value = static_cast<std::int64_t>(node.size());  // the classes it names
  } else if (key == "architectures" && node.is_array()) {
    std::string names;  // "GPT2LMHeadModel", or several joined by commas
    for (const auto& n : node)
      names += (names.empty() ? "" : ",") + (n.is_string() ? n.get<std::string>() : n.dump());
    f.value = names;
  } else {
    f.as_written = node.is_null() ? "null" : node.is_array() ? "a list" : "an object";
    f.unreadable =
        "cannot use " + f.as_written + " here: expected a number, true or false, or a string";
  }
  return f;
}

// How deep a config.json's arrays and objects may nest: a few levels in every published one
// (task_specific_params holds objects of objects). Deeper ones are refused before they are
// parsed, as nlohmann::json writes and compares them recursively.
constexpr int kDeepestJson = 64;

void check_nesting(std::string_view text, const std::string& path) {
  int depth = 0, line = 1;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (c == '\\') ++i;  // an escaped character, a quote among them
      in_string = c != '"';
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kDeepestJson) {
        throw ConfigError(path, line,
                          "arrays and objects nested more than " + std::to_string(kDeepestJson) +
                              " deep; a config.json's fields nest a few levels");
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

// The text's JSON, or a ConfigError at the line of its first mistake.
nlohmann::json parsed(std::string_view text, const std::string& path) {
  check_nesting(text, path);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    const auto byte = std::min<std::size_t>(error.byte, text.size());
    const int line = 1 + static_cast<int>(std::count(text.begin(),
                                                     text.begin() + static_cast<long>(byte), '\n'));
    const std::string message = error.what();
    // without nlohmann's "[json.exception.parse_error.101]"
    // nlohmann quotes what it last read, which can be the rest of a long line
    throw ConfigError(path, line, shortened(message.substr(message.find("parse error")), 240));
  }
}

}  // namespace

ConfigFields json_fields(std::string_view text, const std::string& path) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw ConfigError(path, 0, "the file is empty; a config.json is an object of fields");
  const nlohmann::json root = parsed(text, path);
  if (!root.is_object())
    throw ConfigError(path, 0, "expected a JSON object of fields, as a config.json holds");
  std::vector<Field> fields;
  for (const auto& [key, node] : root.items()) {
    // transformers keeps its own bookkeeping under names that begin with an underscore
    // (_name_or_path, _num_labels in older files): not the model's fields
    if (!key.starts_with("_")) fields.push_back(field_of(text, key, node));
  }
  std::stable_sort(fields.begin(), fields.end(),
                   [](const Field& a, const Field& b) { return a.line < b.line; });
  if (std::none_of(fields.begin(), fields.end(),
                   [](const Field& f) { return f.name == "model_type"; })) {
    throw ConfigError(path, 0,
                      "a config.json names its model_type; the planner reads \"bert\", "
                      "\"distilbert\", \"vit\" and \"gpt2\" (MLPs and CNNs are planned from "
                      "TOML, a GPT from nanoGPT's config/*.py too)");
  }
  return ConfigFields(path, std::move(fields), /*open=*/true);
}

}  // namespace planner
