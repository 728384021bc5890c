#include "random/cpu_generator.h"

#include <cmath>
#include <numbers>

namespace engine::detail {

std::uint64_t CpuGenerator::nondeterministic_seed() {
  std::random_device device;
  const std::uint64_t high = device(), low = device();
  return ((high << 32) + low) & 0x1FFFFFFFFFFFFFULL;
}

double CpuGenerator::standard_normal_double() {
  if (next_double_normal_) {
    const double cached = *next_double_normal_;
    next_double_normal_.reset();
    return cached;
  }
  constexpr std::uint64_t kMask53 = (1ULL << 53) - 1;
  constexpr double kScale53 = 1.0 / static_cast<double>(1ULL << 53);
  const double u1 = static_cast<double>(random64() & kMask53) * kScale53;
  const double u2 = static_cast<double>(random64() & kMask53) * kScale53;
  const double radius = std::sqrt(-2.0 * std::log(1.0 - u2));
  const double theta = 2.0 * std::numbers::pi * u1;
  next_double_normal_ = radius * std::sin(theta);
  return radius * std::cos(theta);
}

}  // namespace engine::detail
