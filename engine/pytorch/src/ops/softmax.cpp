// softmax and log_softmax (aten/src/ATen/native/SoftMax.cpp) over one dimension, and their
// gradients, for floating dtypes: float16 and bfloat16 computed in float32 and rounded once
// (the cpu's vectorised kernels for reduced floating types do so; Note [Half precision computes
// in float32]).

#include <algorithm>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/ops.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "tensor/opmath.h"
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
  const char* lastdim_name;   // the cpu kernel's name in its dtype check, over the last dimension
  const char* other_name;     // over any other
  const char* kernel;         // "aten::_softmax"
  const char* backward_node;  // "SoftmaxBackward0"
  const char* backward_kernel;
  void (*forward)(const float*, float*, std::int64_t, std::int64_t, std::int64_t);
  void (*backward)(const float*, const float*, float*, std::int64_t, std::int64_t, std::int64_t);
};

// The kernel over (outer, n, inner), in float32 whatever the tensors' floating dtypes.
template <typename Kernel, typename... Tensors>
void run_in_float(Kernel kernel, const Tensor& out, const detail::Axis& a, const Tensors&... in) {
  detail::ResultAs<float> result(out);
  kernel(detail::ValuesAs<float>(in).data()..., result.data(), a.outer, a.n, a.inner);
  result.store();
}

Tensor run(const Variant& v, const Tensor& x, std::int64_t dim) {
  const detail::Axis a = axis_of(x, dim);  // a named struct: the backward lambda captures it
  // softmax_cpu_out picks the lastdim kernel by the dimension, not by the extent after it: a
  // (3, 1) tensor over dimension 0 takes softmax_kernel_impl (a 0-dim input is viewed as 1-D).
  const bool last = x.dim() <= 1 || detail::wrap_dim(dim, x.dim()) == x.dim() - 1;
  detail::dispatch_floating(x.scalar_type(), last ? v.lastdim_name : v.other_name,
                            detail::Float64::NotImplemented, [](auto) {});
  Tensor out =
      detail::allocate(x.sizes().vec(), x.scalar_type(), x.device(), detail::have_values({&x}));
  if (out.impl().has_values()) run_in_float(v.forward, out, a, x);
  detail::launch({.name = v.kernel,
                  .kind = detail::OpKind::Softmax,
                  .bytes = 2 * detail::nbytes(x),
                  .elements = static_cast<double>(x.numel()),
                  .row = a.n,
                  .dtype = x.scalar_type()},
                 x.device());
  if (detail::should_record({&x})) {
    const Tensor saved = out.detach();
    detail::record(out, v.backward_node, {x}, [saved, a, &v](const Tensor& g) {
      Tensor grad = detail::allocate(saved.sizes().vec(), saved.scalar_type(), g.device(),
                                     detail::have_values({&g, &saved}));
      if (grad.impl().has_values()) run_in_float(v.backward, grad, a, g, saved);
      detail::launch({.name = v.backward_kernel,
                      .kind = detail::OpKind::Softmax,
                      .bytes = 3 * detail::nbytes(saved),
                      .elements = static_cast<double>(saved.numel()),
                      .row = a.n,
                      .dtype = saved.scalar_type()},
                     g.device());
      return std::vector<Tensor>{grad};
    });
  }
  return out;
}

// The dtype checks' kernel names, as PyTorch's cpu kernels print them (log_softmax over an
// inner dimension reuses softmax's).
constexpr Variant kSoftmax{"softmax_lastdim_kernel_impl",
                           "softmax_kernel_impl",
                           "aten::_softmax",
                           "SoftmaxBackward0",
                           "aten::_softmax_backward_data",
                           kernels::softmax,
                           kernels::softmax_backward};
constexpr Variant kLogSoftmax{"log_softmax_lastdim_kernel_impl",
                              "softmax_kernel_impl",
                              "aten::_log_softmax",
                              "LogSoftmaxBackward0",
                              "aten::_log_softmax_backward_data",
                              kernels::log_softmax,
                              kernels::log_softmax_backward};

}  // namespace

Tensor softmax(const Tensor& x, std::int64_t dim) {
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::Softmax, {x})) {
    const detail::AutocastExclusion exclusion(cast->device);
    return softmax(cast->inputs[0], dim);
  }
  return run(kSoftmax, x, dim);
}

Tensor log_softmax(const Tensor& x, std::int64_t dim) {
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::LogSoftmax, {x})) {
    const detail::AutocastExclusion exclusion(cast->device);
    return log_softmax(cast->inputs[0], dim);
  }
  return run(kLogSoftmax, x, dim);
}

}  // namespace engine
