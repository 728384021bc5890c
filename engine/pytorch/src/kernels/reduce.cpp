#include <Eigen/Core>

#include "kernels/kernels.h"

namespace engine::kernels {

void sum_over_axis(const float* in, float* out, std::int64_t outer, std::int64_t reduce,
                   std::int64_t inner, double scale) {
  // Accumulate in double: a long axis then rounds once, which agrees with PyTorch's float32
  // cascade summation to within its last bit.
  Eigen::ArrayXd sum(inner);
  for (std::int64_t o = 0; o < outer; ++o) {
    sum.setZero();
    for (std::int64_t r = 0; r < reduce; ++r) {
      sum += Eigen::Map<const Eigen::ArrayXf>(in + (o * reduce + r) * inner, inner).cast<double>();
    }
    Eigen::Map<Eigen::ArrayXf>(out + o * inner, inner) = (sum * scale).cast<float>();
  }
}

}  // namespace engine::kernels
