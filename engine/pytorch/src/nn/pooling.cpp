// torch.nn.functional.max_pool2d and adaptive_avg_pool2d (aten/src/ATen/native/
// DilatedMaxPool2d.cpp, AdaptiveAveragePooling.cpp; on mps, aten/src/ATen/native/mps/operations/
// Pooling.mm and AdaptivePooling.mm) and their gradients. The engine's adaptive pooling takes
// any output size on mps; PyTorch's MPS kernel handles only input sizes that are multiples of
// the output's, and sends the others to the cpu.

#include <string>
#include <vector>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "kernels/image.h"
#include "mps/stream.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

// The planes (N C, or C) of a 3-D or 4-D input, with PyTorch's text for any other.
std::int64_t planes_of(const Tensor& input) {
  if ((input.dim() != 3 && input.dim() != 4) || input.numel() == 0)
    throw Error("non-empty 3D or 4D (batch mode) tensor expected for input");
  return input.numel() / (input.size(-1) * input.size(-2));
}

std::vector<std::int64_t> with_plane(const Tensor& input, std::int64_t h, std::int64_t w) {
  std::vector<std::int64_t> sizes = input.sizes().vec();
  sizes[sizes.size() - 2] = h;
  sizes.back() = w;
  return sizes;
}

// set_kernel_params' checks on mps: both sides shrink (or both grow), by whole factors.
void check_mps_adaptive_sizes(std::int64_t in_h, std::int64_t in_w, std::int64_t out_h,
                              std::int64_t out_w) {
  if (!((in_h >= out_h && in_w >= out_w) || (in_h <= out_h && in_w <= out_w))) {
    throw NotImplementedError(
        "Adaptive pool MPS: Input height and width must both be greater than, or equal to, or "
        "lesser than output height and width");
  }
  const bool shrinks = in_h >= out_h;
  const bool divisible =
      shrinks ? in_h % out_h == 0 && in_w % out_w == 0 : out_h % in_h == 0 && out_w % in_w == 0;
  if (!divisible) {
    throw NotImplementedError(
        std::string("Adaptive pool MPS: ") +
        (shrinks ? "input sizes must be divisible by output sizes"
                 : "output sizes must be divisible by input sizes") +
        ". Non-divisible input sizes are not implemented on MPS device yet. For now, you can "
        "manually transfer tensor to cpu in this case. Please refer to [this "
        "issue](https://github.com/pytorch/pytorch/issues/96056)");
  }
}

}  // namespace

Tensor max_pool2d(const Tensor& input, const MaxPool2dFuncOptions& options) {
  const std::int64_t planes = planes_of(input);
  kernels::Window w{.channels = 1,
                    .height = input.size(-2),
                    .width = input.size(-1),
                    .kernel_h = options.kernel_size()[0],
                    .kernel_w = options.kernel_size()[1],
                    .stride_h = options.stride()[0],
                    .stride_w = options.stride()[1],
                    .pad_h = options.padding()[0],
                    .pad_w = options.padding()[1],
                    .dilation_h = 1,
                    .dilation_w = 1,
                    .out_h = 0,
                    .out_w = 0};
  if (2 * w.pad_h > w.kernel_h || 2 * w.pad_w > w.kernel_w) {
    throw Error("pad should be at most half of kernel size, but got pad=" +
                std::to_string(w.pad_h) + " and kernel_size=" + std::to_string(w.kernel_h));
  }
  w.out_h = kernels::window_count(w.height + 2 * w.pad_h - w.kernel_h, w.stride_h);
  w.out_w = kernels::window_count(w.width + 2 * w.pad_w - w.kernel_w, w.stride_w);
  if (w.out_h < 1 || w.out_w < 1) {
    const std::int64_t c = input.size(-3);
    throw Error("Given input size: (" + std::to_string(c) + "x" + std::to_string(w.height) + "x" +
                std::to_string(w.width) + "). Calculated output size: (" + std::to_string(c) + "x" +
                std::to_string(w.out_h) + "x" + std::to_string(w.out_w) +
                "). Output size is too small");
  }
  detail::dispatch_floating(input.scalar_type(), "max_pool2d", detail::Float64::NotImplemented,
                            [](auto) {});
  const Device device = input.device();
  const bool values = detail::have_values({&input});
  Tensor out =
      detail::allocate(with_plane(input, w.out_h, w.out_w), input.scalar_type(), device, values);
  Tensor indices = detail::allocate(out.sizes().vec(), ScalarType::Long, device, values);
  detail::launch({.name = "aten::max_pool2d_with_indices",
                  .kind = detail::OpKind::Reduction,
                  .bytes = detail::nbytes(input) + detail::nbytes(out) + detail::nbytes(indices),
                  .elements = static_cast<double>(out.numel()),
                  .dtype = input.scalar_type()},
                 device);
  if (values) {
    detail::ResultAs<float> result(out);
    kernels::max_pool2d(detail::ValuesAs<float>(input).data(), result.data(),
                        indices.impl().data<std::int64_t>(), planes, w);
    result.store();
  }
  if (!detail::should_record({&input})) return out;
  detail::record(
      out, "MaxPool2DWithIndicesBackward0", {input}, [input, indices, planes, w](const Tensor& g) {
        const Device where = g.device();
        const bool ready = detail::have_values({&g, &indices});
        Tensor dx = detail::allocate(input.sizes().vec(), input.scalar_type(), where, ready);
        detail::launch({.name = "aten::max_pool2d_with_indices_backward",
                        .kind = detail::OpKind::Elementwise,
                        .bytes = detail::nbytes(dx) + detail::nbytes(g) + detail::nbytes(indices),
                        .dtype = dx.scalar_type()},
                       where);
        if (ready) {
          detail::ResultAs<float> result(dx);
          std::fill_n(result.data(), dx.numel(), 0.0f);
          kernels::max_pool2d_backward(detail::ValuesAs<float>(g).data(),
                                       indices.impl().data<std::int64_t>(), result.data(), planes,
                                       w);
          result.store();
        }
        return std::vector<Tensor>{dx};
      });
  return out;
}

Tensor adaptive_avg_pool2d(const Tensor& input, const AdaptiveAvgPool2dFuncOptions& options) {
  const std::int64_t out_h = options.output_size()[0], out_w = options.output_size()[1];
  if (input.dim() < 2) {
    throw IndexError("Dimension out of range (expected to be in range of [-1, 0], but got -2)");
  }
  // at::native::adaptive_avg_pool2d: a 1 x 1 output is a mean, on every device
  if (out_h == 1 && out_w == 1) return input.mean({-1, -2}, true);
  const std::int64_t planes = planes_of(input), height = input.size(-2), width = input.size(-1);
  detail::dispatch_floating(input.scalar_type(), "adaptive_avg_pool2d_cpu",
                            detail::Float64::NotImplemented, [](auto) {});
  const Device device = input.device();
  if (device.is_mps()) check_mps_adaptive_sizes(height, width, out_h, out_w);
  const bool values = detail::have_values({&input});
  Tensor out =
      detail::allocate(with_plane(input, out_h, out_w), input.scalar_type(), device, values);
  detail::launch({.name = "aten::_adaptive_avg_pool2d",
                  .kind = detail::OpKind::Reduction,
                  .bytes = detail::nbytes(input) + detail::nbytes(out),
                  .dtype = input.scalar_type()},
                 device);
  if (values) {
    detail::ResultAs<float> result(out);
    kernels::adaptive_avg_pool2d(detail::ValuesAs<float>(input).data(), result.data(), planes,
                                 height, width, out_h, out_w);
    result.store();
  }
  if (!detail::should_record({&input})) return out;
  detail::record(
      out, "AdaptiveAvgPool2DBackward0", {input},
      [input, planes, height, width, out_h, out_w](const Tensor& g) {
        const Device where = g.device();
        const bool ready = detail::have_values({&g});
        Tensor dx = detail::allocate(input.sizes().vec(), input.scalar_type(), where, ready);
        detail::launch({.name = "aten::_adaptive_avg_pool2d_backward",
                        .kind = detail::OpKind::Elementwise,
                        .bytes = detail::nbytes(dx) + detail::nbytes(g),
                        .dtype = dx.scalar_type()},
                       where);
        if (ready) {
          detail::ResultAs<float> result(dx);
          kernels::adaptive_avg_pool2d_backward(detail::ValuesAs<float>(g).data(), result.data(),
                                                planes, height, width, out_h, out_w);
          result.store();
        }
        return std::vector<Tensor>{dx};
      },
      detail::Saves::NoTensors);
  return out;
}

}  // namespace engine::nn::functional
