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

// softmax and log_softmax differ only in their kernels and names: one path runs either.
struct Variant {
  const char* op;             // the check's name, "softmax"
  const char* kernel;         // "aten::_softmax"
  const char* backward_node;  // "SoftmaxBackward0"
  const char* backward_kernel;
  void (*forward)(const float*, float*, std::int64_t, std::int64_t, std::int64_t);
  void (*backward)(const float*, const float*, float*, std::int64_t, std::int64_t, std::int64_t);
};

Tensor run(const Variant& v, const Tensor& x, std::int64_t dim) {
  detail::require_float(x, v.op);
  const detail::Axis a = axis_of(x, dim);  // a named struct: the backward lambda captures it
  Tensor out =
      detail::allocate(x.sizes().vec(), ScalarType::Float, x.device(), detail::have_values({&x}));
  if (out.impl().has_values())
    v.forward(x.impl().data<float>(), out.impl().data<float>(), a.outer, a.n, a.inner);
  detail::launch({.name = v.kernel,
                  .kind = detail::OpKind::Softmax,
                  .bytes = 2 * detail::nbytes(x),
                  .elements = static_cast<double>(x.numel()),
                  .row = a.n},
                 x.device());
  if (detail::should_record({&x})) {
    const Tensor saved = out.detach();
    detail::record(out, v.backward_node, {x}, [saved, a, &v](const Tensor& g) {
      Tensor grad = detail::allocate(saved.sizes().vec(), ScalarType::Float, g.device(),
                                     detail::have_values({&g, &saved}));
      if (grad.impl().has_values()) {
        v.backward(g.impl().data<float>(), saved.impl().data<float>(), grad.impl().data<float>(),
                   a.outer, a.n, a.inner);
      }
      detail::launch({.name = v.backward_kernel,
                      .kind = detail::OpKind::Softmax,
                      .bytes = 3 * detail::nbytes(saved),
                      .elements = static_cast<double>(saved.numel()),
                      .row = a.n},
                     g.device());
      return std::vector<Tensor>{grad};
    });
  }
  return out;
}

constexpr Variant kSoftmax{"softmax",          "aten::_softmax",
                           "SoftmaxBackward0", "aten::_softmax_backward_data",
                           kernels::softmax,   kernels::softmax_backward};
constexpr Variant kLogSoftmax{"log_softmax",         "aten::_log_softmax",
                              "LogSoftmaxBackward0", "aten::_log_softmax_backward_data",
                              kernels::log_softmax,  kernels::log_softmax_backward};

}  // namespace

Tensor softmax(const Tensor& x, std::int64_t dim) { return run(kSoftmax, x, dim); }

Tensor log_softmax(const Tensor& x, std::int64_t dim) { return run(kLogSoftmax, x, dim); }

}  // namespace engine
