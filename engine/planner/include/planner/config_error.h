#pragma once
// A config the planner cannot use: the message names the file, the line of the field (when the
// file has lines) and the field, as `my_model.toml:3: n_head: expected a positive integer, got
// 'six'`.

#include <stdexcept>
#include <string>

namespace planner {

class ConfigError : public std::runtime_error {
 public:
  // line 0: the file as a whole
  ConfigError(const std::string& path, int line, const std::string& message);
};

}  // namespace planner
