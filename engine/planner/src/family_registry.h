#pragma once
// Every model family the planner knows, one row each, and the two questions only the registry
// answers: which family a config file describes, and which family a ModelConfig is.

#include <string_view>
#include <vector>

#include "config_fields.h"
#include "family.h"
#include "planner/model_config.h"

namespace planner {

// In the order of FamilySettings' alternatives.
const std::vector<const Family*>& all_families();

const Family& family_of(const ModelConfig& config);
const Family* family_named(std::string_view name);

// The config a file's fields describe, read by its family: the one `family` names, else the one
// whose model a field names (model_type, model), else nanoGPT's GPT, as train.py's globals are.
ModelConfig read_config(const ConfigFields& in);

}  // namespace planner
