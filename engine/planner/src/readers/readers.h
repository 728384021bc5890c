#pragma once
// The readers of the config formats: each turns a file's text into its fields (config_fields.h),
// in the order of their lines, refusing only what its syntax cannot hold; what the fields mean is
// the families' business.

#include <string>
#include <string_view>

#include "config_fields.h"

namespace planner {

// TOML: every field is one the planner reads.
ConfigFields toml_fields(std::string_view text, const std::string& path);

// A Hugging Face config.json: an object of the model's fields, which names its model_type;
// transformers' own bookkeeping (names starting with an underscore) is left out.
ConfigFields json_fields(std::string_view text, const std::string& path);

// One of nanoGPT's config/*.py files: train.py's globals assigned one per line.
ConfigFields python_fields(std::string_view text, const std::string& path);

}  // namespace planner
