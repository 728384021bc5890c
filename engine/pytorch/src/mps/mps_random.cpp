// torch.mps.get_rng_state, set_rng_state, manual_seed and seed (torch/mps/__init__.py) over the
// default mps generator (aten/src/ATen/mps/MPSGeneratorImpl.mm).

#include <algorithm>
#include <array>
#include <string>

#include "engine/backends/mps.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "machine/process.h"

namespace engine::py::torch::mps {
namespace {

// torch._C._mps_get_default_generator asks the MPS hooks for their default generator, which a
// build without MPS answers with the hooks' text.
detail::MpsGenerator& default_generator() {
  if (!backends::mps::is_built()) {
    throw Error("Cannot execute getDefaultGenerator() without MPS backend.");
  }
  return detail::process().mps_generator;
}

}  // namespace

Tensor get_rng_state() {
  const auto bytes = default_generator().state();
  Tensor state = zeros({static_cast<std::int64_t>(bytes.size())}, kUInt8);
  std::copy(bytes.begin(), bytes.end(), state.data_ptr<std::uint8_t>());
  return state;
}

// detail::check_rng_state (aten/src/ATen/core/Generator.h), then MPSGeneratorImpl's size check.
void set_rng_state(const Tensor& new_state) {
  detail::MpsGenerator& generator = default_generator();
  if (new_state.scalar_type() != kUInt8 || !new_state.is_cpu()) {
    throw TypeError("RNG state must be a torch.ByteTensor");
  }
  std::array<std::uint8_t, detail::MpsGenerator::kStateBytes> bytes{};
  if (new_state.numel() != static_cast<std::int64_t>(bytes.size())) {
    throw Error("RNG state is wrong size");
  }
  const std::uint8_t* data = new_state.data_ptr<std::uint8_t>();
  std::copy(data, data + bytes.size(), bytes.begin());
  generator.set_state(bytes);
}

// Python's manual_seed returns at once where torch._C._has_mps is false.
void manual_seed(std::uint64_t seed) {
  if (!backends::mps::is_built()) return;
  default_generator().set_current_seed(seed);
}

// MPSGeneratorImpl::seed: a nondeterministic seed, as a fresh process's.
void seed() { default_generator().set_current_seed(detail::CpuGenerator::nondeterministic_seed()); }

}  // namespace engine::py::torch::mps
