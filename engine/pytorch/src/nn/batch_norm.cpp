// torch.nn.functional.batch_norm (aten/src/ATen/native/Normalization.cpp; on mps an MPSGraph,
// aten/src/ATen/native/mps/operations/Normalization.mm) and its gradient: each channel
// normalised by its mean and variance over the batch and the spatial positions.

#include <cmath>
#include <string>
#include <vector>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/nn/functional.h"
#include "kernels/image.h"
#include "mps/stream.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

void check_statistic(const Tensor& t, const char* name, std::int64_t channels) {
  if (t.defined() && t.numel() != channels)
    throw Error(std::string(name) + " should contain " + std::to_string(channels) +
                " elements not " + std::to_string(t.numel()));
}

// The new running statistics, written into the buffers the module keeps (no autograd).
void update_running(const Tensor& running_mean, const Tensor& running_var, const Tensor& mean,
                    const Tensor& variance, double momentum, double count) {
  const double unbiased = count / std::max(count - 1, 1.0);
  for (std::int64_t c = 0; c < mean.numel(); ++c) {
    if (running_mean.defined()) {
      float& r = running_mean.impl().data<float>()[c];
      r = static_cast<float>((1 - momentum) * r + momentum * mean.impl().data<float>()[c]);
    }
    if (running_var.defined()) {
      float& r = running_var.impl().data<float>()[c];
      r = static_cast<float>((1 - momentum) * r +
                             momentum * variance.impl().data<float>()[c] * unbiased);
    }
  }
}

}  // namespace

Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const BatchNormFuncOptions& options) {
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
  detail::require_float(input, "batch_norm");
  const Device device = input.device();
  const bool values = detail::have_values({&input, &weight, &bias, &running_mean, &running_var});
  Tensor out = detail::allocate(input.sizes().vec(), ScalarType::Float, device, values);
  Tensor mean = detail::allocate({channels}, ScalarType::Float, device, values);
  Tensor rstd = detail::allocate({channels}, ScalarType::Float, device, values);
  // training reads the input twice (its statistics, then the normalisation) and writes once
  detail::launch({.name = "aten::native_batch_norm",
                  .kind = detail::OpKind::Normalization,
                  .bytes = (training ? 3.0 : 2.0) * detail::nbytes(input),
                  .elements = static_cast<double>(input.numel()),
                  .row = n * spatial},
                 device);
  if (values) {
    if (training) {
      Tensor variance = detail::allocate({channels}, ScalarType::Float, device);
      kernels::channel_moments(input.impl().data<float>(), mean.impl().data<float>(),
                               variance.impl().data<float>(), n, channels, spatial);
      for (std::int64_t c = 0; c < channels; ++c) {
        rstd.impl().data<float>()[c] = static_cast<float>(
            1 / std::sqrt(static_cast<double>(variance.impl().data<float>()[c]) + options.eps()));
      }
      update_running(running_mean, running_var, mean, variance, options.momentum(),
                     static_cast<double>(n * spatial));
    } else {
      for (std::int64_t c = 0; c < channels; ++c) {
        mean.impl().data<float>()[c] = running_mean.impl().data<float>()[c];
        rstd.impl().data<float>()[c] = static_cast<float>(
            1 /
            std::sqrt(static_cast<double>(running_var.impl().data<float>()[c]) + options.eps()));
      }
    }
    kernels::batch_norm_apply(input.impl().data<float>(), mean.impl().data<float>(),
                              rstd.impl().data<float>(),
                              weight.defined() ? weight.impl().data<float>() : nullptr,
                              bias.defined() ? bias.impl().data<float>() : nullptr,
                              out.impl().data<float>(), n, channels, spatial);
  }
  if (!detail::should_record({&input, &weight, &bias})) return out;
  detail::record(
      out, "NativeBatchNormBackward0", {input, weight, bias},
      [input, weight, bias, mean, rstd, training, n, channels, spatial](const Tensor& g) {
        const Device where = g.device();
        const bool ready = detail::have_values({&g, &input, &weight, &mean});
        Tensor dx = detail::allocate(input.sizes().vec(), ScalarType::Float, where, ready);
        Tensor dw = weight.defined() ? detail::allocate({channels}, ScalarType::Float, where, ready)
                                     : Tensor();
        Tensor db = bias.defined() ? detail::allocate({channels}, ScalarType::Float, where, ready)
                                   : Tensor();
        detail::launch({.name = "aten::native_batch_norm_backward",
                        .kind = detail::OpKind::Normalization,
                        .bytes = 3 * detail::nbytes(input),
                        .elements = static_cast<double>(input.numel()),
                        .row = n * spatial},
                       where);
        if (ready) {
          kernels::batch_norm_backward(
              g.impl().data<float>(), input.impl().data<float>(), mean.impl().data<float>(),
              rstd.impl().data<float>(), weight.defined() ? weight.impl().data<float>() : nullptr,
              training, dx.impl().data<float>(), dw.defined() ? dw.impl().data<float>() : nullptr,
              db.defined() ? db.impl().data<float>() : nullptr, n, channels, spatial);
        }
        return std::vector<Tensor>{dx, dw, db};
      });
  return out;
}

}  // namespace engine::nn::functional
