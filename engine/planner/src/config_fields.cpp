#include "config_fields.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <utility>

#include "engine/notebook/spelling.h"

namespace planner {
ConfigError::ConfigError(const std::string& path, int line, const std::string& message)
    : std::runtime_error(path + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " +
                         message) {}

ConfigFields::ConfigFields(std::string path, std::vector<Field> fields, bool open)
    : path_(std::move(path)), fields_(std::move(fields)), open_(open) {}

std::string ConfigFields::stem() const { return std::filesystem::path(path_).stem().string(); }

const Field* ConfigFields::last(std::string_view name) const {
  const auto found = std::find_if(fields_.rbegin(), fields_.rend(),
                                  [&](const Field& f) { return f.name == name; });
  return found == fields_.rend() ? nullptr : &*found;
}

void ConfigFields::fail(const Field& field, const std::string& message) const {
  throw ConfigError(path_, field.line, shortened(field.name) + ": " + message);
}

void ConfigFields::fail_file(const std::string& message) const {
  throw ConfigError(path_, 0, message);
}

const FieldValue& ConfigFields::value(const Field& field) const {
  if (!field.value) fail(field, field.unreadable);
  return *field.value;
}

std::int64_t ConfigFields::integer(const Field& field, std::int64_t smallest,
                                   std::int64_t largest) const {
  const FieldValue& v = value(field);
  const auto* i = std::get_if<std::int64_t>(&v);
  if (i == nullptr || *i < smallest || *i > largest) {
    fail(field, "expected an integer from " + std::to_string(smallest) + " to " +
                    std::to_string(largest) + ", got " +
                    (field.as_written.empty() ? describe(v) : shortened(field.as_written)));
  }
  return *i;
}

std::int64_t ConfigFields::count(const Field& field) const {
  const FieldValue& v = value(field);
  const auto* i = std::get_if<std::int64_t>(&v);
  if (i == nullptr || *i < 0)
    fail(field, "expected a count of blocks from 0 (the head alone) up, got " + describe(v));
  return *i;
}

double ConfigFields::fraction(const Field& field) const {
  const FieldValue& v = value(field);
  double x = -1;
  if (const auto* d = std::get_if<double>(&v)) x = *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) x = static_cast<double>(*i);
  if (!(x >= 0 && x < 1))
    fail(field, "expected a probability from 0 up to (not including) 1, got " + describe(v));
  return x;
}

bool ConfigFields::boolean(const Field& field) const {
  const FieldValue& v = value(field);
  const auto* b = std::get_if<bool>(&v);
  if (b == nullptr) fail(field, "expected true or false, got " + describe(v));
  return *b;
}

std::string ConfigFields::text(const Field& field) const {
  const FieldValue& v = value(field);
  const auto* s = std::get_if<std::string>(&v);
  if (s == nullptr) fail(field, "expected a quoted string, got " + describe(v));
  return *s;
}

std::string ConfigFields::choice(const Field& field, const std::vector<std::string>& choices,
                                 const std::string& note) const {
  const std::string chosen = text(field);
  if (std::find(choices.begin(), choices.end(), chosen) != choices.end()) return chosen;
  std::string expected;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    expected += (i == 0                    ? ""
                 : i + 1 == choices.size() ? " or "
                                           : ", ") +
                ("\"" + choices[i] + "\"");
  }
  fail(field, "expected " + expected + (note.empty() ? "" : " (" + note + ")") + ", got \"" +
                  shortened(chosen) + "\"");
}

std::vector<std::string> ConfigFields::apply(const std::vector<FieldRule>& rules,
                                             const std::function<void(const Field&)>& other) const {
  std::vector<std::string> set;
  for (const Field& field : fields_) {
    const auto rule = std::find_if(rules.begin(), rules.end(),
                                   [&](const FieldRule& r) { return r.name == field.name; });
    if (rule == rules.end()) {
      other(field);
      continue;
    }
    rule->apply(field);
    if (rule->recorded) set.push_back(field.name);
  }
  return set;
}

FieldRule size_rule(const ConfigFields& in, std::string name, std::int64_t& into,
                    std::int64_t largest) {
  return {std::move(name),
          [&in, &into, largest](const Field& f) { into = in.positive_integer(f, largest); }};
}

FieldRule probability_rule(const ConfigFields& in, std::string name, double& into) {
  return {std::move(name), [&in, &into](const Field& f) { into = in.fraction(f); }};
}

FieldRule yes_no_rule(const ConfigFields& in, std::string name, bool& into) {
  return {std::move(name), [&in, &into](const Field& f) { into = in.boolean(f); }};
}

FieldRule choosing_rule(std::string name) {
  return {std::move(name), [](const Field&) {}, /*recorded=*/false};
}

std::string shortened(std::string_view text, std::size_t longest) {
  if (text.size() <= longest) return std::string(text);
  return std::string(text.substr(0, longest)) + "...";
}

std::string describe(const FieldValue& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return "'" + shortened(*s) + "'";
  if (std::holds_alternative<std::vector<std::int64_t>>(v)) return "a list";
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  std::ostringstream out;
  out << std::get<double>(v);
  const std::string text = out.str();
  return text.find_first_of(".en") == std::string::npos ? text + ".0" : text;  // 768.0, not 768
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::optional<std::string> near_name(std::string_view name, const std::vector<std::string>& names) {
  for (std::string_view candidate : names) {
    // two edits of a long name, one of a short one: n_embed is n_embd, bais is bias
    const std::size_t allowed = candidate.size() >= 6 ? 2 : 1;
    if (engine::notebook::spelling_distance(name, candidate) <= allowed)
      return std::string(candidate);
  }
  return std::nullopt;
}

}  // namespace planner
