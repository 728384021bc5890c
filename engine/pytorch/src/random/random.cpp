#include "engine/random.h"

#include "machine/process.h"

namespace engine {

// torch.manual_seed seeds every device's generator, mps's included (torch/random.py).
void manual_seed(std::uint64_t seed) {
  detail::process().cpu_generator.set_current_seed(seed);
  detail::process().mps_generator.set_current_seed(seed);
}

std::uint64_t initial_seed() { return detail::process().cpu_generator.current_seed(); }

}  // namespace engine
