// torch.nn.functional.batch_norm (aten/src/ATen/native/Normalization.cpp; on mps an MPSGraph,
// aten/src/ATen/native/mps/operations/Normalization.mm) and its gradient: each channel
// normalised by its mean and variance over the batch and the spatial positions. Every floating
// dtype computes in float32 (Note [Half precision computes in float32]); the statistics stay
// float32, and the weight, bias and running statistics may be float32 beside a half input, as
// PyTorch's mixed-type kernel allows.

#include <cmath>
#include <string>
#include <vector>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/nn/functional.h"
#include "kernels/image.h"
#include "mps/stream.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

void check_statistic(const Tensor& t, const char* name, std::int64_t channels) {
  if (t.defined() && t.numel() != channels)
    throw Error(std::string(name) + " should contain " + std::to_string(channels) +
                " elements not " + std::to_string(t.numel()));
}

// running = (1 - momentum) running + momentum statistic, in the buffer the module keeps (no
// autograd), whatever its floating dtype.
void update_statistic(const Tensor& running, const float* statistic, double momentum,
                      double factor) {
  if (!running.defined()) return;
  const detail::ValuesAs<float> old(running);
  detail::ResultAs<float> updated(running);
  for (std::int64_t c = 0; c < running.numel(); ++c) {
    updated.data()[c] =
        static_cast<float>((1 - momentum) * old.data()[c] + momentum * statistic[c] * factor);
  }
  updated.store();
}

// The new running statistics; the variance unbiased.
void update_running(const Tensor& running_mean, const Tensor& running_var, const Tensor& mean,
                    const Tensor& variance, double momentum, double count) {
  const double unbiased = count / std::max(count - 1, 1.0);
  update_statistic(running_mean, mean.impl().data<float>(), momentum, 1.0);
  update_statistic(running_var, variance.impl().data<float>(), momentum, unbiased);
}

}  // namespace

Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const BatchNormFuncOptions& options) {
  if (auto cast = detail::autocast_inputs(
          detail::AutocastOp::BatchNorm,
          {input, running_mean, running_var, options.weight(), options.bias()})) {
    const detail::AutocastExclusion exclusion(cast->device);
    BatchNormFuncOptions cast_options = options;
    cast_options.weight(cast->inputs[3]).bias(cast->inputs[4]);
    return batch_norm(cast->inputs[0], cast->inputs[1], cast->inputs[2], cast_options);
  }
  const Tensor &weight = options.weight(), &bias = options.bias();
  const bool training = options.training();
  if (input.dim() < 2)
    throw IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  const std::int64_t n = input.size(0), channels = input.size(1);
  const std::int64_t spatial = input.numel() / std::max<std::int64_t>(n * channels, 1);
  if (training && n * spatial == 1) {
    throw ValueError(
        std::string("Expected more than 1 value per channel when training, got input size ") +
        "torch.Size(" + detail::sizes_string(input.sizes()) + ")");
  }
  if (!training && !running_mean.defined())
    throw Error("running_mean must be defined in evaluation mode");
  if (!training && !running_var.defined())
    throw Error("running_var must be defined in evaluation mode");
  check_statistic(running_mean, "running_mean", channels);
  check_statistic(running_var, "running_var", channels);
  detail::dispatch_floating(input.scalar_type(), "batch_norm", detail::Float64::NotImplemented,
                            [](auto) {});
  const Device device = input.device();
  const bool values = detail::have_values({&input, &weight, &bias, &running_mean, &running_var});
  Tensor out = detail::allocate(input.sizes().vec(), input.scalar_type(), device, values);
  Tensor mean = detail::allocate({channels}, ScalarType::Float, device, values);
  Tensor rstd = detail::allocate({channels}, ScalarType::Float, device, values);
  // training reads the input twice (its statistics, then the normalisation) and writes once
  detail::launch({.name = "aten::native_batch_norm",
                  .kind = detail::OpKind::Normalization,
                  .bytes = (training ? 3.0 : 2.0) * detail::nbytes(input),
                  .elements = static_cast<double>(input.numel()),
                  .row = n * spatial,
                  .dtype = input.scalar_type()},
                 device);
  if (values) {
    const detail::ValuesAs<float> x(input);
    if (training) {
      Tensor variance = detail::allocate({channels}, ScalarType::Float, device);
      kernels::channel_moments(x.data(), mean.impl().data<float>(), variance.impl().data<float>(),
                               n, channels, spatial);
      for (std::int64_t c = 0; c < channels; ++c) {
        rstd.impl().data<float>()[c] = static_cast<float>(
            1 / std::sqrt(static_cast<double>(variance.impl().data<float>()[c]) + options.eps()));
      }
      update_running(running_mean, running_var, mean, variance, options.momentum(),
                     static_cast<double>(n * spatial));
    } else {
      const detail::ValuesAs<float> stored_mean(running_mean), stored_var(running_var);
      for (std::int64_t c = 0; c < channels; ++c) {
        mean.impl().data<float>()[c] = stored_mean.data()[c];
        rstd.impl().data<float>()[c] = static_cast<float>(
            1 / std::sqrt(static_cast<double>(stored_var.data()[c]) + options.eps()));
      }
    }
    detail::ResultAs<float> y(out);
    kernels::batch_norm_apply(x.data(), mean.impl().data<float>(), rstd.impl().data<float>(),
                              detail::ValuesAs<float>(weight).data(),
                              detail::ValuesAs<float>(bias).data(), y.data(), n, channels, spatial);
    y.store();
  }
  if (!detail::should_record({&input, &weight, &bias})) return out;
  detail::record(
      out, "NativeBatchNormBackward0", {input, weight, bias},
      [input, weight, bias, mean, rstd, training, n, channels, spatial](const Tensor& g) {
        const Device where = g.device();
        const bool ready = detail::have_values({&g, &input, &weight, &mean});
        Tensor dx = detail::allocate(input.sizes().vec(), input.scalar_type(), where, ready);
        Tensor dw = weight.defined()
                        ? detail::allocate({channels}, weight.scalar_type(), where, ready)
                        : Tensor();
        Tensor db = bias.defined() ? detail::allocate({channels}, bias.scalar_type(), where, ready)
                                   : Tensor();
        detail::launch({.name = "aten::native_batch_norm_backward",
                        .kind = detail::OpKind::Normalization,
                        .bytes = 3 * detail::nbytes(input),
                        .elements = static_cast<double>(input.numel()),
                        .row = n * spatial,
                        .dtype = input.scalar_type()},
                       where);
        if (ready) {
          detail::ResultAs<float> dxv(dx), dwv(dw.defined() ? dw : dx), dbv(db.defined() ? db : dx);
          kernels::batch_norm_backward(detail::ValuesAs<float>(g).data(),
                                       detail::ValuesAs<float>(input).data(),
                                       mean.impl().data<float>(), rstd.impl().data<float>(),
                                       detail::ValuesAs<float>(weight).data(), training, dxv.data(),
                                       dw.defined() ? dwv.data() : nullptr,
                                       db.defined() ? dbv.data() : nullptr, n, channels, spatial);
          dxv.store();
          if (dw.defined()) dwv.store();
          if (db.defined()) dbv.store();
        }
        return std::vector<Tensor>{dx, dw, db};
      });
  return out;
}

}  // namespace engine::nn::functional
