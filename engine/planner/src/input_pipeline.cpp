#include "input_pipeline.h"

#include <engine/simulated_data.h>

#include <algorithm>
#include <string>

namespace planner {

namespace data = engine::sim::data;
using engine::py::torch::utils::data::DataLoaderOptions;

InputPipeline::InputPipeline(const InputSettings& input, std::int64_t batch_size,
                             std::int64_t image_size, std::int64_t classes, std::int64_t channels) {
  // The training scripts' loaders: shuffled, the last short batch dropped, the workers started
  // again each epoch (persistent_workers is off by default), prefetch_factor's default.
  const DataLoaderOptions options{.batch_size = batch_size,
                                  .shuffle = true,
                                  .num_workers = input.num_workers,
                                  .drop_last = true};
  const auto samples = static_cast<std::size_t>(input.num_samples);
  samples_ = input.num_samples;
  if (input.samples == "jpeg") {
    loader_ = std::make_unique<DataLoader>(
        data::JpegImageFolder(
            {.images = samples,
             .stored_width = input.stored_size,
             .stored_height = std::max<std::int64_t>(1, input.stored_size * 4 / 5),
             .output_size = image_size,
             .augment = input.augment,
             .classes = classes}),
        options);
  } else {
    loader_ = std::make_unique<DataLoader>(data::InMemoryImages({.images = samples,
                                                                 .side = image_size,
                                                                 .augment = input.augment,
                                                                 .classes = classes,
                                                                 .channels = channels}),
                                           options);
  }
}

InputPipeline::~InputPipeline() = default;

std::vector<engine::Tensor> InputPipeline::next() {
  if (batch_) ++*batch_;
  if (!batch_ || *batch_ == loader_->end()) batch_ = loader_->begin();
  if (*batch_ == loader_->end()) {
    throw engine::ValueError(
        "the dataset's " + std::to_string(samples_) + " samples make no batch of " +
        std::to_string(loader_->options().batch_size) +
        " (the loader drops the last, short batch): num_samples is smaller than batch_size");
  }
  return {(*batch_)->data, (*batch_)->target};
}

int InputPipeline::warm_up_iterations(const InputSettings& input) {
  return 2 + static_cast<int>(input.num_workers) * 2;  // prefetch_factor's default, 2
}

int InputPipeline::timed_iterations(const InputSettings& input) {
  const int workers = static_cast<int>(input.num_workers);
  return workers <= 3 ? 3 : workers;
}

}  // namespace planner
