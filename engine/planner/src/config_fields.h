#pragma once
// A config file as a reader of its format leaves it (src/readers/): its fields, each with its
// line and its value, and the checks of a value every family shares. The readers know the
// syntax; the families (src/families/) know what the fields mean.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planner/config_error.h"

namespace planner {

using FieldValue = std::variant<std::int64_t, double, bool, std::string, std::vector<std::int64_t>>;

struct Field {
  std::string name;
  int line = 0;
  std::optional<FieldValue> value;  // empty: written in a form the reader cannot take
  std::string as_written;           // where messages show the value as written (Python's)
  std::string unreadable;           // why `value` is empty, in the reader's words
};

// One field's rule in a family's table: what it does with the field's value, and whether the
// field counts among those the file set (`family` and `model_type` only choose the family).
struct FieldRule {
  std::string name;
  std::function<void(const Field&)> apply;
  bool recorded = true;
};

class ConfigFields;

// The rules of a field that holds a size (from 1 to `largest`), a probability or a yes or no,
// read into `into`; and of one that only chose the family (`family`, `model_type`).
FieldRule size_rule(const ConfigFields& in, std::string name, std::int64_t& into,
                    std::int64_t largest);
FieldRule probability_rule(const ConfigFields& in, std::string name, double& into);
FieldRule yes_no_rule(const ConfigFields& in, std::string name, bool& into);
FieldRule choosing_rule(std::string name);

class ConfigFields {
 public:
  // `open`: the format may hold fields the planner does not read (nanoGPT's Python files assign
  // any global; a config.json holds the whole model's), to be ignored unless near one it reads.
  ConfigFields(std::string path, std::vector<Field> fields, bool open);

  const std::string& path() const { return path_; }
  const std::vector<Field>& fields() const { return fields_; }
  bool open() const { return open_; }
  std::string stem() const;                        // the config's name in the plan: the file's stem
  const Field* last(std::string_view name) const;  // the field's last assignment, if any
  bool has(std::string_view name) const { return last(name) != nullptr; }

  [[noreturn]] void fail(const Field& field, const std::string& message) const;
  [[noreturn]] void fail_file(const std::string& message) const;

  // The field's value, as the family expects it, or a ConfigError that says what was expected.
  const FieldValue& value(const Field& field) const;
  // An integer from `smallest` to `largest`: expected an integer from 1 to 128, got 400.
  std::int64_t integer(const Field& field, std::int64_t smallest, std::int64_t largest) const;
  std::int64_t positive_integer(const Field& field, std::int64_t largest) const {
    return integer(field, 1, largest);
  }
  std::int64_t count(const Field& field) const;  // of blocks, from 0
  double fraction(const Field& field) const;     // a probability: 0 up to (not including) 1
  bool boolean(const Field& field) const;
  std::string text(const Field& field) const;
  // One of `choices`, or: expected "a", "b" or "c" (note), got "d".
  std::string choice(const Field& field, const std::vector<std::string>& choices,
                     const std::string& note = "") const;

  // Applies each field by its rule in `rules`, recording the fields set; a field without one
  // goes to `other`, which refuses or ignores it. Returns the fields set, in order.
  std::vector<std::string> apply(const std::vector<FieldRule>& rules,
                                 const std::function<void(const Field&)>& other) const;

 private:
  std::string path_;
  std::vector<Field> fields_;
  bool open_;
};

// `text` as a message quotes it: whole, or its first `longest` characters and "...", so that a
// refusal stays a line or two whatever the file holds.
std::string shortened(std::string_view text, std::size_t longest = 60);

// A value as a message shows it: 'six', 768.0, true, a list.
std::string describe(const FieldValue& value);

// "a, b, c": names for a message.
std::string listed(const std::vector<std::string>& names);

// The name in `names` that `name` is most likely a misspelling of (n_layers, n_embed), if any.
std::optional<std::string> near_name(std::string_view name, const std::vector<std::string>& names);

}  // namespace planner
