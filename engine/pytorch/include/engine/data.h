#pragma once
// torch::data (torch/csrc/api/include/torch/data): LibTorch's datasets and samplers, as much of
// them as the course's input pipelines use. A dataset answers size() and get(index) with an
// Example of a data tensor and a target; a sampler hands out the order of the indices, a batch
// of them at a time. Python's DataLoader, with its worker processes, is py::torch::utils::data
// (engine/data_loader.h); the emulator's datasets with the cpu work of real ones (decoding
// images, tokenizing text) are sim::data (engine/simulated_data.h).
// Simplification: RandomSampler's order is the engine's own shuffle, drawn from the default
// generator (one seed per reset), not torch::randperm's values.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/tensor.h"

namespace engine::data {

// torch::data::Example: one sample, its data and its target (a label).
template <typename Data = Tensor, typename Target = Tensor>
struct Example {
  using DataType = Data;
  using TargetType = Target;
  Example() = default;
  Example(Data data, Target target) : data(std::move(data)), target(std::move(target)) {}
  Data data;
  Target target;
};

namespace datasets {

// torch::data::datasets::Dataset<Self, SingleExample>: a map-style dataset, the same thing as a
// Python Dataset with __getitem__ and __len__. Subclass it and write get() and size().
template <typename Self, typename SingleExample = Example<>>
class Dataset {
 public:
  using ExampleType = SingleExample;
  virtual ~Dataset() = default;
  virtual ExampleType get(std::size_t index) = 0;
  virtual std::optional<std::size_t> size() const = 0;
  // The examples at `indices`, in order: what a DataLoader fetches for one batch.
  std::vector<ExampleType> get_batch(const std::vector<std::size_t>& indices) {
    std::vector<ExampleType> batch;
    batch.reserve(indices.size());
    for (const std::size_t index : indices) batch.push_back(get(index));
    return batch;
  }
};

}  // namespace datasets

namespace samplers {

// torch::data::samplers::SequentialSampler: 0, 1, 2, ... in batches.
class SequentialSampler {
 public:
  explicit SequentialSampler(std::size_t size) : size_(size) {}
  void reset(std::optional<std::size_t> new_size = std::nullopt);
  // The next `batch_size` indices (fewer at the end), or nullopt once all were handed out.
  std::optional<std::vector<std::size_t>> next(std::size_t batch_size);
  std::size_t index() const noexcept { return index_; }

 private:
  std::size_t size_;
  std::size_t index_ = 0;
};

// torch::data::samplers::RandomSampler: a new permutation of 0 .. size-1 at every reset().
class RandomSampler {
 public:
  explicit RandomSampler(std::int64_t size);
  void reset(std::optional<std::size_t> new_size = std::nullopt);
  std::optional<std::vector<std::size_t>> next(std::size_t batch_size);
  std::size_t index() const noexcept { return index_; }

 private:
  std::vector<std::size_t> indices_;
  std::size_t index_ = 0;
};

}  // namespace samplers
}  // namespace engine::data
