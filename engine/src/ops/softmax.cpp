// log_softmax (aten/src/ATen/native/SoftMax.cpp) over one dimension, and its gradient.

#include "autograd/record.h"
#include "engine/ops.h"
#include "kernels/kernels.h"
#include "runtime/stream.h"
#include "tensor_impl.h"

namespace engine {

Tensor log_softmax(const Tensor& x, std::int64_t dim) {
  detail::require_float(x, "log_softmax");
  const std::int64_t d = detail::wrap_dim(dim, x.dim());
  const auto sizes = x.sizes();
  const std::int64_t n = x.dim() == 0 ? 1 : sizes[static_cast<std::size_t>(d)];
  const std::int64_t outer = product(IntArrayRef(sizes.data(), static_cast<std::size_t>(d)));
  const std::int64_t inner = x.numel() / (outer * n);
  Tensor out = detail::allocate(sizes.vec(), ScalarType::Float, x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) {
    kernels::log_softmax(x.impl().data<float>(), out.impl().data<float>(), outer, n, inner);
  }
  detail::launch({"aten::_log_softmax", 0, 2 * detail::nbytes(x)}, x.device());
  if (detail::should_record({&x})) {
    const Tensor saved = out.detach();
    detail::record(out, "LogSoftmaxBackward0", {x}, [saved, outer, n, inner](const Tensor& g) {
      Tensor grad = detail::allocate(saved.sizes().vec(), ScalarType::Float, g.device(),
                                     detail::have_values({&g, &saved}));
      if (grad.impl().has_values()) {
        kernels::log_softmax_backward(g.impl().data<float>(), saved.impl().data<float>(),
                                      grad.impl().data<float>(), outer, n, inner);
      }
      detail::launch({"aten::_log_softmax_backward_data", 0, 3 * detail::nbytes(saved)}, g.device());
      return std::vector<Tensor>{grad};
    });
  }
  return out;
}

}  // namespace engine
