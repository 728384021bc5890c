#include <Eigen/Core>

#include "kernels/kernels.h"

namespace engine::kernels {

template <typename T>
void sum_over_axis(const T* in, T* out, std::int64_t outer, std::int64_t reduce, std::int64_t inner,
                   double scale) {
  // Accumulate in double: a long axis then rounds once, which agrees with PyTorch's float32
  // cascade summation to within its last bit.
  using Values = Eigen::Array<T, Eigen::Dynamic, 1>;
  Eigen::ArrayXd sum(inner);
  for (std::int64_t o = 0; o < outer; ++o) {
    sum.setZero();
    for (std::int64_t r = 0; r < reduce; ++r) {
      sum += Eigen::Map<const Values>(in + (o * reduce + r) * inner, inner).template cast<double>();
    }
    Eigen::Map<Values>(out + o * inner, inner) = (sum * scale).template cast<T>();
  }
}

template void sum_over_axis<float>(const float*, float*, std::int64_t, std::int64_t, std::int64_t,
                                   double);
template void sum_over_axis<double>(const double*, double*, std::int64_t, std::int64_t,
                                    std::int64_t, double);

}  // namespace engine::kernels
