// torch.equal, torch.isfinite and Tensor.all: questions about values rather than arithmetic.

#include <cmath>

#include "device_checks.h"
#include "engine/ops.h"
#include "tensor_impl.h"

namespace engine {

bool equal(const Tensor& a, const Tensor& b) {
  detail::common_device({&a, &b});
  if (a.sizes() != b.sizes()) return false;
  const std::vector<float> av = a.to(ScalarType::Float).to_vector<float>();
  const std::vector<float> bv = b.to(ScalarType::Float).to_vector<float>();
  return av == bv;
}

Tensor isfinite(const Tensor& t) {
  Tensor out = detail::allocate(t.sizes().vec(), ScalarType::Bool, t.device());
  bool* result = out.impl().data<bool>();
  detail::visit_dtype(t.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* values = t.impl().data<T>();
    for (std::int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_same_v<T, float>) {
        result[i] = std::isfinite(values[i]);
      } else {
        result[i] = true;  // integers and bools are always finite
      }
    }
  });
  return out;
}

bool all(const Tensor& t) {
  bool every = true;
  detail::visit_dtype(t.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* values = t.impl().data<T>();
    for (std::int64_t i = 0; i < t.numel() && every; ++i) every = values[i] != T{};
  });
  return every;
}

}  // namespace engine
