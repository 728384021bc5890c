// softmax and log_softmax (aten/src/ATen/native/SoftMax.cpp) over one dimension, and their
// gradients.

#include <algorithm>

#include "autograd/record.h"
#include "engine/ops.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// The (outer, n, inner) view of x around dimension `dim`; a 0-dim tensor is one row of one.
detail::Axis axis_of(const Tensor& x, std::int64_t dim) {
  const std::int64_t d = detail::wrap_dim(dim, x.dim());
  if (x.dim() == 0) return {1, 1, 1};
  return detail::axis_around(x.sizes(), static_cast<std::size_t>(d));
}

}  // namespace

Tensor softmax(const Tensor& x, std::int64_t dim) {
  detail::require_float(x, "softmax");
  const detail::Axis a = axis_of(x, dim);
  Tensor out = detail::allocate(x.sizes().vec(), ScalarType::Float, x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) kernels::softmax(x.impl().data<float>(), out.impl().data<float>(), a.outer, a.n, a.inner);
  detail::launch({.name = "aten::_softmax", .kind = detail::OpKind::Softmax, .bytes = 2 * detail::nbytes(x),
                  .elements = static_cast<double>(x.numel()), .row = a.n},
                 x.device());
  if (detail::should_record({&x})) {
    const Tensor saved = out.detach();
    detail::record(out, "SoftmaxBackward0", {x}, [saved, a](const Tensor& g) {
      Tensor grad = detail::allocate(saved.sizes().vec(), ScalarType::Float, g.device(),
                                     detail::have_values({&g, &saved}));
      if (grad.impl().has_values()) {
        kernels::softmax_backward(g.impl().data<float>(), saved.impl().data<float>(),
                                  grad.impl().data<float>(), a.outer, a.n, a.inner);
      }
      detail::launch({.name = "aten::_softmax_backward_data", .kind = detail::OpKind::Softmax, .bytes = 3 * detail::nbytes(saved),
                      .elements = static_cast<double>(saved.numel()), .row = a.n},
                     g.device());
      return std::vector<Tensor>{grad};
    });
  }
  return out;
}

Tensor log_softmax(const Tensor& x, std::int64_t dim) {
  detail::require_float(x, "log_softmax");
  const detail::Axis a = axis_of(x, dim);  // a named struct: lambdas below capture it
  Tensor out = detail::allocate(x.sizes().vec(), ScalarType::Float, x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) {
    kernels::log_softmax(x.impl().data<float>(), out.impl().data<float>(), a.outer, a.n, a.inner);
  }
  detail::launch({.name = "aten::_log_softmax", .kind = detail::OpKind::Softmax, .bytes = 2 * detail::nbytes(x),
                  .elements = static_cast<double>(x.numel()), .row = a.n},
                 x.device());
  if (detail::should_record({&x})) {
    const Tensor saved = out.detach();
    detail::record(out, "LogSoftmaxBackward0", {x}, [saved, a](const Tensor& g) {
      Tensor grad = detail::allocate(saved.sizes().vec(), ScalarType::Float, g.device(),
                                     detail::have_values({&g, &saved}));
      if (grad.impl().has_values()) {
        kernels::log_softmax_backward(g.impl().data<float>(), saved.impl().data<float>(),
                                      grad.impl().data<float>(), a.outer, a.n, a.inner);
      }
      detail::launch({.name = "aten::_log_softmax_backward_data", .kind = detail::OpKind::Softmax,
                      .bytes = 3 * detail::nbytes(saved), .elements = static_cast<double>(saved.numel()), .row = a.n},
                     g.device());
      return std::vector<Tensor>{grad};
    });
  }
  return out;
}

}  // namespace engine
