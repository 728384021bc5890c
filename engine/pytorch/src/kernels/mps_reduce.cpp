// Sums along an axis in the emulated MPS order: Note [Summation order on mps] (mps_kernels.h).

#include <Eigen/Core>

#include "kernels/kernels.h"
#include "kernels/mps_kernels.h"

namespace engine::kernels {
namespace mps {

namespace {
constexpr std::int64_t kSimdWidth = 32;  // threads in an Apple GPU SIMD-group
}

void sum_over_axis(const float* in, float* out, std::int64_t outer, std::int64_t reduce,
                   std::int64_t inner, double scale) {
  // Column l holds lane l's partial sums for every one of the `inner` outputs.
  Eigen::ArrayXXf lanes(inner, kSimdWidth);
  for (std::int64_t o = 0; o < outer; ++o) {
    lanes.setZero();
    for (std::int64_t r = 0; r < reduce; ++r) {
      lanes.col(r % kSimdWidth) +=
          Eigen::Map<const Eigen::ArrayXf>(in + (o * reduce + r) * inner, inner);
    }
    for (std::int64_t width = kSimdWidth / 2; width >= 1; width /= 2) {
      for (std::int64_t l = 0; l < width; ++l) lanes.col(l) += lanes.col(l + width);
    }
    Eigen::Map<Eigen::ArrayXf>(out + o * inner, inner) = lanes.col(0) * static_cast<float>(scale);
  }
}

}  // namespace mps

const Summation& summation_on(const Device& device) {
  static constexpr Summation cpu{kernels::sum_over_axis<float>, kernels::matmul,
                                 kernels::matmul_transposed_a, kernels::linear};
  static constexpr Summation gpu{mps::sum_over_axis, mps::matmul, mps::matmul_transposed_a,
                                 mps::linear};
  return device.is_mps() ? gpu : cpu;
}

}  // namespace engine::kernels
