#pragma once
// The encoder family, in three files: encoder.cpp (the family), encoder_config.cpp (Hugging
// Face's names for its settings, per model_type) and encoder_network.cpp (transformers' encoders
// on the engine).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "family.h"

namespace planner {

// The config the fields describe, with its config class's defaults where they are silent.
ModelConfig read_encoder_config(const ConfigFields& in);
// Every field an encoder's config may set, and a field's name in the model's own config.json:
// BERT's (`bert_name`), or DistilBERT's where its config renames it ("hidden_size" -> "dim").
std::vector<std::string> encoder_field_names();
std::string encoder_own_name(std::string_view bert_name, const EncoderSettings& encoder);
// transformers' config class for the model_type: "BertConfig".
std::string encoder_config_class(const EncoderSettings& encoder);

std::unique_ptr<TrainingRun::State> make_encoder_run(const ModelConfig& config,
                                                     engine::Device device);

}  // namespace planner
