#pragma once
// The default CPU generator (ATen's CPUGeneratorImpl): a Mersenne Twister whose output, through
// the same uniform and normal transforms as PyTorch, gives the same numbers bit for bit.

#include <cstdint>

namespace engine {

// torch.manual_seed: reseeds the default generator.
void manual_seed(std::uint64_t seed);
// torch.initial_seed: the seed of the default generator. A fresh process draws it at random,
// as PyTorch does; call manual_seed for numbers that repeat.
std::uint64_t initial_seed();

}  // namespace engine
