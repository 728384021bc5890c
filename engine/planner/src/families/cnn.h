#pragma once
// The CNN family, in two files: cnn.cpp (the family: torchvision's names for its settings) and
// cnn_network.cpp (torchvision's ResNets and VGGs on the engine).

#include <memory>

#include "family.h"

namespace planner {

// `blocks`: the stages or blocks of convolutions trainable_layers counts.
std::unique_ptr<TrainingRun::State> make_cnn_run(const ModelConfig& config, engine::Device device,
                                                 std::int64_t blocks);

}  // namespace planner
