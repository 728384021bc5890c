#pragma once
// Internal: the batches of a config's input pipeline (model_config.h's InputSettings), as a
// training script's loop takes them: a DataLoader over the samples, its passes begun again as
// each ends (an epoch's `for batch in loader`), each batch left on the cpu for the run to copy.

#include <engine/engine.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "planner/model_config.h"

namespace planner {

class InputPipeline {
 public:
  // Images of `image_size` a side, labelled with one of `classes`, `batch_size` to a batch; JPEGs
  // are RGB, images in memory `channels` deep.
  InputPipeline(const InputSettings& input, std::int64_t batch_size, std::int64_t image_size,
                std::int64_t classes, std::int64_t channels = 3);
  ~InputPipeline();
  InputPipeline(const InputPipeline&) = delete;
  InputPipeline& operator=(const InputPipeline&) = delete;

  // The next batch on the cpu: the images and their labels.
  std::vector<engine::Tensor> next();

  // The iterations a steady step needs before it is timed, and those it times: enough for the
  // batches the workers loaded ahead at their start to be used up, so that a step waiting on its
  // input waits as it would an epoch long; a whole round of the workers timed.
  static int warm_up_iterations(const InputSettings& input);
  static int timed_iterations(const InputSettings& input);

 private:
  using DataLoader = engine::py::torch::utils::data::DataLoader;
  std::unique_ptr<DataLoader> loader_;
  std::optional<DataLoader::Iterator> batch_;
  std::int64_t samples_ = 0;
};

}  // namespace planner
