// TOML, through toml++: top-level keys with a number, a boolean, a string or a list of integers
// (a list of strings only for `architectures`, which config.json writes as one).

#include <toml++/toml.h>

#include <algorithm>

#include "readers/readers.h"
#include "readers/toml_guard.h"

namespace planner {
namespace {

// The value of a node the planner can take, or what the node is for the message that it cannot.
Field field_of(std::string name, const toml::node& node) {
  Field f{std::move(name), static_cast<int>(node.source().begin.line), std::nullopt, "", ""};
  if (const auto* i = node.as_integer()) {
    f.value = i->get();
  } else if (const auto* d = node.as_floating_point()) {
    f.value = d->get();
  } else if (const auto* b = node.as_boolean()) {
    f.value = b->get();
  } else if (const auto* s = node.as_string()) {
    f.value = s->get();
  } else if (const auto* list = node.as_array();
             list != nullptr && list->is_homogeneous<std::int64_t>()) {
    std::vector<std::int64_t> numbers;
    for (const toml::node& n : *list) numbers.push_back(n.as_integer()->get());
    f.value = numbers;
  } else if (list != nullptr && list->is_homogeneous<std::string>() && f.name == "architectures") {
    std::string names;  // GPT-2's model classes, joined by commas as a config.json's are
    for (const toml::node& n : *list) names += (names.empty() ? "" : ",") + n.as_string()->get();
    f.value = names;
  } else {
    const char* what = node.is_table()   ? "a table"
                       : node.is_array() ? "a list of other than integers"
                                         : "a date or time";
    f.unreadable =
        std::string("cannot use ") + what + " here: expected a number, true or false, or a string";
  }
  return f;
}

}  // namespace

ConfigFields toml_fields(std::string_view text, const std::string& path) {
  guard_toml(text, path);
  toml::table table;
  try {
    table = toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    throw ConfigError(path, static_cast<int>(error.source().begin.line),
                      std::string(error.description()));
  }
  std::vector<Field> fields;
  for (const auto& [key, node] : table) fields.push_back(field_of(std::string(key.str()), node));
  std::stable_sort(fields.begin(), fields.end(),
                   [](const Field& a, const Field& b) { return a.line < b.line; });
  return ConfigFields(path, std::move(fields), /*open=*/false);
}

}  // namespace planner
