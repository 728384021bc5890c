// torch.nn.functional.layer_norm (aten/src/ATen/native/layer_norm.cpp): each row normalised to
// zero mean and unit (biased) variance over its trailing dimensions, then scaled and shifted.

#include <string>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/nn/functional.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

void check_shape(const Tensor& input, IntArrayRef normalized_shape) {
  const auto n = static_cast<std::int64_t>(normalized_shape.size());
  bool ok = input.dim() >= n;
  for (std::int64_t i = 0; ok && i < n; ++i) {
    ok = input.size(input.dim() - n + i) == normalized_shape[static_cast<std::size_t>(i)];
  }
  if (!ok) {
    std::string expected = "[*";
    for (std::int64_t s : normalized_shape) expected += ", " + std::to_string(s);
    throw Error("Given normalized_shape=" + detail::sizes_string(normalized_shape) +
                ", expected input with shape " + expected + "], but got input of size" +
                detail::sizes_string(input.sizes()));
  }
}

}  // namespace

Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options) {
  const IntArrayRef normalized_shape(options.normalized_shape());
  const Tensor& weight = options.weight();
  const Tensor& bias = options.bias();
  const double eps = options.eps();
  check_shape(input, normalized_shape);
  detail::require_float(input, "layer_norm");
  // The MPS kernel is Metal's layer_norm_single_row or _looped, its tensors bound by mtl_setArgs
  // (the forward moved from MPSGraph to Metal in pytorch/pytorch#152010, April 2025; which release
  // first shipped it is not established here: an MPSGraph build would report TensorIterator's
  // text from its addcmul instead).
  if (detail::any_on_mps({&input, &weight, &bias}))
    detail::check_mtl_buffers({&input, &weight, &bias});
  const Device device = input.device();
  const std::int64_t n = product(normalized_shape),
                     rows = input.numel() / std::max<std::int64_t>(n, 1);
  const bool values = detail::have_values({&input, &weight, &bias});
  Tensor out = detail::allocate(input.sizes().vec(), ScalarType::Float, device, values);
  Tensor mean = detail::allocate({rows}, ScalarType::Float, device, values);
  Tensor rstd = detail::allocate({rows}, ScalarType::Float, device, values);
  detail::launch(
      {.name = "aten::native_layer_norm",
       .kind = detail::OpKind::Normalization,
       .bytes = 2 * detail::nbytes(input),
       .elements = static_cast<double>(input.numel()),
       .row = n,
       .encoding = detail::Encoding::Metal},  // a Metal kernel since pytorch/pytorch#152010
      device);
  if (values) {
    kernels::layer_norm(
        input.impl().data<float>(), weight.defined() ? weight.impl().data<float>() : nullptr,
        bias.defined() ? bias.impl().data<float>() : nullptr, out.impl().data<float>(),
        mean.impl().data<float>(), rstd.impl().data<float>(), rows, n, static_cast<float>(eps));
  }
  if (!detail::should_record({&input, &weight, &bias})) return out;
  std::vector<Tensor> inputs{input, weight, bias};
  detail::record(
      out, "NativeLayerNormBackward0", inputs,
      [input, weight, bias, mean, rstd, rows, n](const Tensor& g) {
        const Device where = g.device();
        const bool ready = detail::have_values({&g, &input, &weight});
        Tensor dx = detail::allocate(input.sizes().vec(), ScalarType::Float, where, ready);
        Tensor dw = weight.defined()
                        ? detail::allocate(weight.sizes().vec(), ScalarType::Float, where, ready)
                        : Tensor();
        Tensor db = bias.defined()
                        ? detail::allocate(bias.sizes().vec(), ScalarType::Float, where, ready)
                        : Tensor();
        detail::launch({.name = "aten::native_layer_norm_backward",
                        .kind = detail::OpKind::Normalization,
                        .bytes = 3 * detail::nbytes(input),
                        .elements = static_cast<double>(input.numel()),
                        .row = n},
                       where);
        if (ready) {
          for (Tensor* t : {&dw, &db}) {
            if (t->defined()) std::fill_n(t->impl().data<float>(), t->numel(), 0.0f);
          }
          kernels::layer_norm_backward(g.impl().data<float>(), input.impl().data<float>(),
                                       weight.defined() ? weight.impl().data<float>() : nullptr,
                                       mean.impl().data<float>(), rstd.impl().data<float>(),
                                       dx.impl().data<float>(),
                                       dw.defined() ? dw.impl().data<float>() : nullptr,
                                       db.defined() ? db.impl().data<float>() : nullptr, rows, n);
        }
        return std::vector<Tensor>{dx, dw, db};
      });
  return out;
}

}  // namespace engine::nn::functional
