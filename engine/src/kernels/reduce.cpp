#include <Eigen/Core>

#include "kernels/kernels.h"

namespace engine::kernels {

void mean_over_axis(const float* in, float* out, std::int64_t outer, std::int64_t reduce,
                    std::int64_t inner) {
  // Accumulate in double: the mean of a long axis then rounds once, like PyTorch's within
  // float32 precision (its CPU sum is a cascade; the last bit can differ).
  Eigen::ArrayXd sum(inner);
  const double scale = reduce > 0 ? 1.0 / static_cast<double>(reduce) : 0.0;
  for (std::int64_t o = 0; o < outer; ++o) {
    sum.setZero();
    for (std::int64_t r = 0; r < reduce; ++r) {
      sum += Eigen::Map<const Eigen::ArrayXf>(in + (o * reduce + r) * inner, inner).cast<double>();
    }
    Eigen::Map<Eigen::ArrayXf>(out + o * inner, inner) = (sum * scale).cast<float>();
  }
}

}  // namespace engine::kernels
