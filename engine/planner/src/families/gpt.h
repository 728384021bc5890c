#pragma once
// The GPT family, in three files: gpt.cpp (the family, and nanoGPT's names for its settings),
// gpt2_config.cpp (the same settings under transformers' GPT2Config names: a checkpoint's
// config.json) and gpt_network.cpp (model.py's GPT and train.py's loop on the engine).

#include <memory>
#include <string>
#include <vector>

#include "config_fields.h"
#include "family.h"

namespace planner {

// transformers' GPT-2 config (model_type "gpt2"): GPT2Config's fields and defaults, then the
// training's, as for an encoder.
ModelConfig read_gpt2_config(const ConfigFields& in);
std::vector<std::string> gpt2_field_names();
std::vector<std::string> gpt2_defaulted_fields(const ModelConfig& config);

// The activations the planner's GPT computes, for `activation_function`.
std::string gpt_activation(const ConfigFields& in, const Field& field);

// n_embd a multiple of n_head, refused at the later of the fields that set them.
void check_heads(const ConfigFields& in, const GptSettings& gpt, const Field* embd,
                 const Field* head);

// The sizes a plan can run: layers times micro-steps, and the tensors the sizes multiply into.
void check_gpt_sizes(const ConfigFields& in, const ModelConfig& config);

std::unique_ptr<TrainingRun::State> make_gpt_run(const ModelConfig& config, engine::Device device,
                                                 bool compiled);

}  // namespace planner
