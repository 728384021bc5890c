#include "random/cpu_generator.h"

#include <cmath>
#include <numbers>

#include "kernels/portable_math.h"

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
  const double u1 = uniform_double();
  const double u2 = uniform_double();
  // PyTorch calls the C library's log, sin and cos; the engine's own keep every host's bits
  // equal (Note [The same bits on every host]).
  const double radius = std::sqrt(-2.0 * kernels::portable::log(1.0 - u2));
  double sine = 0, cosine = 0;
  kernels::portable::sin_cos(2.0 * std::numbers::pi * u1, sine, cosine);
  next_double_normal_ = radius * sine;
  return radius * cosine;
}

}  // namespace engine::detail
