// torch.nn.functional.layer_norm (aten/src/ATen/native/layer_norm.cpp): each row normalised to
// zero mean and unit (biased) variance over its trailing dimensions, then scaled and shifted.
// float16 and bfloat16 inputs compute in float32, their statistics kept in float32 (the cpu's
// LayerNormKernelImpl with its float accumulation type), and the result rounds to the input's
// dtype; weight and bias may be float32 beside them, as PyTorch's mixed-type kernel allows.

#include <algorithm>
#include <string>
#include <vector>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/nn/functional.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
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

// Float32 values into `out`, rounded to its dtype; nothing for an undefined tensor.
void store_floats(const std::vector<float>& values, const Tensor& out) {
  if (!out.defined()) return;
  detail::ResultAs<float> result(out);
  std::copy(values.begin(), values.end(), result.data());
  result.store();
}

}  // namespace

Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options) {
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::LayerNorm,
                                          {input, options.weight(), options.bias()})) {
    const detail::AutocastExclusion exclusion(cast->device);
    LayerNormFuncOptions cast_options = options;
    cast_options.weight(cast->inputs[1]).bias(cast->inputs[2]);
    return layer_norm(cast->inputs[0], cast_options);
  }
  const IntArrayRef normalized_shape(options.normalized_shape());
  const Tensor& weight = options.weight();
  const Tensor& bias = options.bias();
  const double eps = options.eps();
  check_shape(input, normalized_shape);
  detail::dispatch_floating(input.scalar_type(), "LayerNormKernelImpl",
                            detail::Float64::NotImplemented, [](auto) {});
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
  Tensor out = detail::allocate(input.sizes().vec(), input.scalar_type(), device, values);
  Tensor mean = detail::allocate({rows}, ScalarType::Float, device, values);
  Tensor rstd = detail::allocate({rows}, ScalarType::Float, device, values);
  detail::launch(
      {.name = "aten::native_layer_norm",
       .kind = detail::OpKind::Normalization,
       .bytes = 2 * detail::nbytes(input),
       .elements = static_cast<double>(input.numel()),
       .row = n,
       .encoding = detail::Encoding::Metal,  // a Metal kernel since pytorch/pytorch#152010
       .dtype = input.scalar_type()},
      device);
  if (values) {
    detail::ResultAs<float> y(out);
    kernels::layer_norm(detail::ValuesAs<float>(input).data(),
                        detail::ValuesAs<float>(weight).data(),
                        detail::ValuesAs<float>(bias).data(), y.data(), mean.impl().data<float>(),
                        rstd.impl().data<float>(), rows, n, static_cast<float>(eps));
    y.store();
  }
  if (!detail::should_record({&input, &weight, &bias})) return out;
  std::vector<Tensor> inputs{input, weight, bias};
  detail::record(
      out, "NativeLayerNormBackward0", inputs,
      [input, weight, bias, mean, rstd, rows, n](const Tensor& g) {
        const Device where = g.device();
        const bool ready = detail::have_values({&g, &input, &weight});
        Tensor dx = detail::allocate(input.sizes().vec(), input.scalar_type(), where, ready);
        Tensor dw = weight.defined()
                        ? detail::allocate(weight.sizes().vec(), weight.scalar_type(), where, ready)
                        : Tensor();
        Tensor db = bias.defined()
                        ? detail::allocate(bias.sizes().vec(), bias.scalar_type(), where, ready)
                        : Tensor();
        detail::launch({.name = "aten::native_layer_norm_backward",
                        .kind = detail::OpKind::Normalization,
                        .bytes = 3 * detail::nbytes(input),
                        .elements = static_cast<double>(input.numel()),
                        .row = n,
                        .dtype = input.scalar_type()},
                       where);
        if (ready) {
          // The weight's and bias's gradients accumulate from zero in float32.
          detail::ResultAs<float> dxv(dx);
          std::vector<float> dwv(static_cast<std::size_t>(dw.defined() ? dw.numel() : 0));
          std::vector<float> dbv(static_cast<std::size_t>(db.defined() ? db.numel() : 0));
          kernels::layer_norm_backward(
              detail::ValuesAs<float>(g).data(), detail::ValuesAs<float>(input).data(),
              detail::ValuesAs<float>(weight).data(), mean.impl().data<float>(),
              rstd.impl().data<float>(), dxv.data(), dw.defined() ? dwv.data() : nullptr,
              db.defined() ? dbv.data() : nullptr, rows, n);
          dxv.store();
          store_floats(dwv, dw);
          store_floats(dbv, db);
        }
        return std::vector<Tensor>{dx, dw, db};
      });
  return out;
}

}  // namespace engine::nn::functional
