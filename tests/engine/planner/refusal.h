#pragma once
// The planner tests' way to try a config: the message its text is refused with, or "accepted".
// `name` picks the format as a file's extension does (.py, .json, else TOML).

#include <string>

#include "planner/model_config.h"

namespace planner_tests {

inline std::string refusal(const std::string& text, const std::string& name = "bad.toml") {
  try {
    if (name.ends_with(".py"))
      planner::parse_python_config(text, name);
    else if (name.ends_with(".json"))
      planner::parse_json_config(text, name);
    else
      planner::parse_toml_config(text, name);
  } catch (const planner::ConfigError& error) {
    return error.what();
  }
  return "accepted";
}

}  // namespace planner_tests
