#include "engine/random.h"

#include "process.h"

namespace engine {

void manual_seed(std::uint64_t seed) { detail::process().cpu_generator.set_current_seed(seed); }

std::uint64_t initial_seed() { return detail::process().cpu_generator.current_seed(); }

}  // namespace engine
