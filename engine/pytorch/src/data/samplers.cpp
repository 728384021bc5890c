// torch::data::samplers (torch/csrc/api/src/data/samplers): the order in which a loader reads a
// dataset. RandomSampler draws one seed from the default generator at each reset, as Python's
// RandomSampler does for each pass, and shuffles with it (Fisher-Yates): the engine's own
// order, not torch::randperm's.

#include <numeric>

#include "engine/data.h"
#include "machine/process.h"

namespace engine::data::samplers {
namespace {

std::optional<std::vector<std::size_t>> take(const std::vector<std::size_t>* all, std::size_t size,
                                             std::size_t& index, std::size_t batch_size) {
  if (index >= size) return std::nullopt;
  const std::size_t end = std::min(size, index + batch_size);
  std::vector<std::size_t> batch;
  batch.reserve(end - index);
  for (std::size_t i = index; i < end; ++i) batch.push_back(all != nullptr ? (*all)[i] : i);
  index = end;
  return batch;
}

}  // namespace

void SequentialSampler::reset(std::optional<std::size_t> new_size) {
  if (new_size) size_ = *new_size;
  index_ = 0;
}

std::optional<std::vector<std::size_t>> SequentialSampler::next(std::size_t batch_size) {
  return take(nullptr, size_, index_, batch_size);
}

RandomSampler::RandomSampler(std::int64_t size) : indices_(static_cast<std::size_t>(size)) {
  reset();
}

void RandomSampler::reset(std::optional<std::size_t> new_size) {
  if (new_size) indices_.resize(*new_size);
  std::iota(indices_.begin(), indices_.end(), std::size_t{0});
  detail::CpuGenerator shuffle(detail::process().cpu_generator.random64());
  for (std::size_t i = indices_.size(); i > 1; --i)
    std::swap(indices_[i - 1], indices_[shuffle.random64() % i]);
  index_ = 0;
}

std::optional<std::vector<std::size_t>> RandomSampler::next(std::size_t batch_size) {
  return take(&indices_, indices_.size(), index_, batch_size);
}

}  // namespace engine::data::samplers
