// Fuzz target: the planner's readers of model configs (TOML, a Hugging Face config.json and
// nanoGPT's Python files), on any text. A config that cannot be used must be refused with a
// ConfigError, which course plan shows; it must never crash, and what is accepted must be a
// model within the planner's ranges that the engine can build.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "planner/model_config.h"
#include "planner/training_step.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto parse :
       {planner::parse_toml_config, planner::parse_json_config, planner::parse_python_config}) {
    try {
      const planner::ModelConfig config = parse(text, "fuzzed");
      static_cast<void>(planner::defaulted_fields(config));
      const bool in_range = config.batch_size >= 1 && config.batch_size <= 1 << 16 &&
                            config.trainable_layers <= planner::block_count(config);
      if (!in_range || planner::parameter_count(config) < 1) __builtin_trap();
    } catch (const planner::ConfigError&) {
    }
  }
  return 0;
}
