#pragma once
// ATen's CPUGeneratorImpl (aten/src/ATen/CPUGeneratorImpl.cpp) and the distribution helpers of
// aten/src/ATen/core/DistributionsHelper.h and TransformationHelper.h: a 32-bit Mersenne
// Twister seeded with the low 32 bits of the seed, 24-bit float and 53-bit double uniforms,
// and a Box-Muller normal that caches its second sample.

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>

namespace engine::detail {

class CpuGenerator {
 public:
  // Like getDefaultCPUGenerator(): seeded from c10::detail::getNonDeterministicRandom(), so
  // an unseeded script draws different numbers in every process, as in PyTorch.
  CpuGenerator() { set_current_seed(nondeterministic_seed()); }
  explicit CpuGenerator(std::uint64_t seed) { set_current_seed(seed); }

  void set_current_seed(std::uint64_t seed) {
    seed_ = seed;
    engine_.seed(static_cast<std::uint32_t>(seed & 0xffffffffULL));
    next_double_normal_.reset();
  }
  std::uint64_t current_seed() const noexcept { return seed_; }

  std::uint32_t random() { return static_cast<std::uint32_t>(engine_()); }
  std::uint64_t random64() {
    const std::uint64_t high = random();
    const std::uint64_t low = random();
    return (high << 32) | low;
  }

  // at::uniform_real_distribution<float>: 24 random bits scaled to [0, 1), then mapped to
  // [from, to); whether the map is one fused multiply-add depends on how PyTorch was compiled.
  float uniform_float(float from, float to, bool fused) {
    const float x = static_cast<float>(random() & ((1U << 24) - 1)) * (1.0f / (1U << 24));
    return fused ? std::fma(x, to - from, from) : x * (to - from) + from;
  }

  // at::uniform_real_distribution<double>(0, 1): 53 random bits of random64(), scaled to [0, 1).
  double uniform_double() {
    constexpr std::uint64_t kMask53 = (1ULL << 53) - 1;
    return static_cast<double>(random64() & kMask53) * (1.0 / static_cast<double>(1ULL << 53));
  }

  // at::normal_distribution<double>(0, 1): Box-Muller on two 53-bit uniforms; the sine half
  // is kept for the next call.
  double standard_normal_double();

  // 64 bits from std::random_device, masked to 53 so Python can hold the seed in a float: what
  // c10::detail::getNonDeterministicRandom() gives every generator seeded at random.
  static std::uint64_t nondeterministic_seed();

 private:
  std::mt19937 engine_;
  std::uint64_t seed_ = 0;
  std::optional<double> next_double_normal_;
};

}  // namespace engine::detail
