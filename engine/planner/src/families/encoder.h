#pragma once
// The encoder family, in two files: encoder.cpp (the family: Hugging Face's names for its
// settings, per model_type) and encoder_network.cpp (transformers' encoders on the engine).

#include <memory>

#include "family.h"

namespace planner {

std::unique_ptr<TrainingRun::State> make_encoder_run(const ModelConfig& config,
                                                     engine::Device device);

}  // namespace planner
