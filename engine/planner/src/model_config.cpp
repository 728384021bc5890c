// Reading a ModelConfig: the file's format picks its reader (readers/), whose fields the family
// they describe checks and applies (family_registry.h).

#include "planner/model_config.h"

#include <algorithm>

#include "engine/notebook/text_file.h"
#include "family_registry.h"
#include "readers/readers.h"

namespace planner {

std::int64_t block_count(const ModelConfig& config) {
  return family_of(config).block_count(config);
}

std::vector<std::string> defaulted_fields(const ModelConfig& config) {
  std::vector<std::string> out = family_of(config).defaulted_fields(config);
  const auto defaulted = [&](std::string_view field) {
    return std::find(config.set_in_file.begin(), config.set_in_file.end(), field) ==
           config.set_in_file.end();
  };
  if (defaulted("gradient_accumulation_steps"))
    out.push_back("gradient_accumulation_steps " +
                  std::to_string(config.gradient_accumulation_steps));
  if (defaulted("gradient_checkpointing"))
    out.push_back(std::string("gradient_checkpointing ") +
                  (config.gradient_checkpointing ? "true" : "false"));
  if (defaulted("log_interval"))
    out.push_back("log_interval " + std::to_string(config.log_interval) +
                  " (loss.item() every step)");
  return out;
}

ModelConfig parse_toml_config(std::string_view text, const std::string& path) {
  return read_config(toml_fields(text, path));
}

ModelConfig parse_python_config(std::string_view text, const std::string& path) {
  return read_config(python_fields(text, path));
}

ModelConfig parse_json_config(std::string_view text, const std::string& path) {
  return read_config(json_fields(text, path));
}

std::string config_text(const std::filesystem::path& path) {
  constexpr std::uintmax_t kLimit = 4u << 20;  // a config is a few KiB
  try {
    return engine::notebook::read_text_file(path.string(), kLimit);
  } catch (const engine::notebook::UnreadableFile& e) {
    throw ConfigError(path.string(), 0, std::string("cannot read the file: ") + e.what());
  }
}

ModelConfig read_model_config(const std::filesystem::path& path) {
  const std::string text = config_text(path);
  if (path.extension() == ".py") return parse_python_config(text, path.string());
  if (path.extension() == ".json") return parse_json_config(text, path.string());
  return parse_toml_config(text, path.string());
}

}  // namespace planner
