#pragma once
// Internal: the MPS device's random-number generator, as aten/src/ATen/mps/MPSGeneratorImpl.mm
// keeps it. Its state is what torch.mps.get_rng_state returns, 44 bytes: seven 32-bit Philox
// state words (all 1 after seeding, but for the key, the seed's two halves, in words 5 and 6;
// words 1 to 4 refreshed from a Philox4x32-10 engine before every random operation,
// update_philox_counters), the 64-bit seed, and a 64-bit offset.
//
// The offset counts the Philox blocks drawn, one per random operation. A Mac's MPSGraph turns the
// words into values with a Philox of its own, whose code is closed; the emulator draws each mps
// operation's values with PyTorch's cpu samplers from a Mersenne Twister seeded by the seed and
// the operation's number, so the values differ from a Mac's, but they follow from the state
// alone, as a Mac's do: a run saved with get_rng_state resumes exactly after set_rng_state.

#include <array>
#include <cstdint>

#include "random/cpu_generator.h"

namespace engine::detail {

// at::Philox4_32 (aten/src/ATen/core/PhiloxRNGEngine.h): ten rounds of Philox 4x32, one 32-bit
// output per call, a new block of four each fourth call.
class Philox4x32 {
 public:
  explicit Philox4x32(std::uint64_t seed = 67280421310721ULL) { reset_state(seed); }
  void reset_state(std::uint64_t seed);
  std::uint32_t operator()();
  // get_offset and set_offset: the counter's low 64 bits, the blocks of four drawn since seeding.
  std::uint64_t offset() const;
  void set_offset(std::uint64_t blocks);

 private:
  std::array<std::uint32_t, 4> counter_{}, output_{};
  std::array<std::uint32_t, 2> key_{};
  unsigned state_ = 0;
};

class MpsGenerator {
 public:
  static constexpr std::size_t kStateBytes = 7 * 4 + 8 + 8;

  MpsGenerator();  // seeded at random, as getDefaultMPSGenerator is
  void set_current_seed(std::uint64_t seed);
  std::uint64_t current_seed() const noexcept { return seed_; }
  // The stream the next random operation draws from, after the Philox words advance for it.
  CpuGenerator& for_next_operation();
  std::array<std::uint8_t, kStateBytes> state() const;
  void set_state(const std::array<std::uint8_t, kStateBytes>& bytes);

 private:
  std::array<std::uint32_t, 7> words_{};
  std::uint64_t seed_ = 0;
  Philox4x32 philox_;    // its offset is the generator's: one block per random operation
  CpuGenerator stream_;  // reseeded for each operation
};

}  // namespace engine::detail
