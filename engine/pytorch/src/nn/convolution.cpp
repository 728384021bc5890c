// torch.nn.functional.conv2d (aten/src/ATen/native/Convolution.cpp) and its gradient. On mps
// it is one MPSGraph convolution (aten/src/ATen/native/mps/operations/Convolution.mm), priced
// as the implicit matrix product it is. On a Mac's cpu, PyTorch's wheels have no oneDNN: a batch
// of 16 or more goes forward through NNPACK and backward through slow_conv_dilated2d's loop
// over the images, a smaller one through slow_conv2d (im2col, then a matrix product through
// Accelerate), Note [The cpu's convolution]; other machines' wheels have oneDNN, priced as the
// matrix product. The engine computes values the cpu's way on both devices, each device's
// products adding in its own order, float16 and bfloat16 in float32 (Note [Half precision
// computes in float32]).

#include <string>
#include <vector>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/machine.h"
#include "engine/nn/functional.h"
#include "engine/sim.h"
#include "kernels/image.h"
#include "kernels/kernels.h"
#include "kernels/mps_kernels.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

// The sizes one convolution works with: a batch of images and the window over them.
struct ConvShape {
  std::int64_t batch;
  std::int64_t out_channels;
  kernels::Window window;
  std::int64_t depth() const { return window.channels * window.kernel_h * window.kernel_w; }
  std::int64_t cells() const { return window.out_h * window.out_w; }
};

// Convolution.cpp's checks, in its order, with its texts.
ConvShape conv_shape(const Tensor& input, const Tensor& weight, const Conv2dFuncOptions& o) {
  if (input.dim() != 3 && input.dim() != 4)
    throw Error("Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: " +
                detail::sizes_string(input.sizes()));
  if (weight.dim() != 4) throw Error("weight should have at least three dimensions");
  if (o.groups() != 1) throw Error("the engine's conv2d computes groups=1 only");
  const bool batched = input.dim() == 4;
  const std::int64_t channels = input.size(batched ? 1 : 0);
  if (channels != weight.size(1)) {
    std::vector<std::int64_t> shown = input.sizes().vec();
    if (!batched) shown.insert(shown.begin(), 1);
    throw Error("Given groups=1, weight of size " + detail::sizes_string(weight.sizes()) +
                ", expected input" + detail::sizes_string(shown) + " to have " +
                std::to_string(weight.size(1)) + " channels, but got " + std::to_string(channels) +
                " channels instead");
  }
  kernels::Window w{.channels = channels,
                    .height = input.size(-2),
                    .width = input.size(-1),
                    .kernel_h = weight.size(2),
                    .kernel_w = weight.size(3),
                    .stride_h = o.stride()[0],
                    .stride_w = o.stride()[1],
                    .pad_h = o.padding()[0],
                    .pad_w = o.padding()[1],
                    .dilation_h = o.dilation()[0],
                    .dilation_w = o.dilation()[1],
                    .out_h = 0,
                    .out_w = 0};
  w.out_h = kernels::window_count(w.height + 2 * w.pad_h - w.dilation_h * (w.kernel_h - 1) - 1,
                                  w.stride_h);
  w.out_w = kernels::window_count(w.width + 2 * w.pad_w - w.dilation_w * (w.kernel_w - 1) - 1,
                                  w.stride_w);
  if (w.out_h < 1 || w.out_w < 1) {
    throw Error("Calculated padded input size per channel: (" +
                std::to_string(w.height + 2 * w.pad_h) + " x " +
                std::to_string(w.width + 2 * w.pad_w) + "). Kernel size: (" +
                std::to_string(w.dilation_h * (w.kernel_h - 1) + 1) + " x " +
                std::to_string(w.dilation_w * (w.kernel_w - 1) + 1) +
                "). Kernel size can't be greater than actual input size");
  }
  return {batched ? input.size(0) : 1, weight.size(0), w};
}

// check_input_same_type_as_parameters: input, weight and bias of one type, or
// "Input type (MPSFloatType) and weight type (torch.FloatTensor) should be the same".
void check_same_type(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (input.device() != weight.device() || input.scalar_type() != weight.scalar_type()) {
    throw Error("Input type (" + detail::type_name_in_errors(input) + ") and weight type (" +
                detail::type_name_in_errors(weight) + ") should be the same");
  }
  if (bias.defined() &&
      (bias.device() != input.device() || bias.scalar_type() != input.scalar_type())) {
    throw Error("Input type (" + detail::type_name_in_errors(input) + ") and bias type (" +
                detail::type_name_in_errors(bias) + ") should be the same");
  }
}

// Convolution.cpp's use_nnpack, on a build with NNPACK and without oneDNN: PyTorch's macOS arm64
// wheels. A float32 conv2d whose batch is at least 16, not dilated, with a kernel under 17 and
// padding smaller than the kernel.
bool uses_nnpack(const ConvShape& s, Device device, ScalarType dtype) {
  const MachineProfile& machine = sim::machine();
  const kernels::Window& w = s.window;
  return device.is_cpu() && dtype == ScalarType::Float && machine.os == OperatingSystem::MacOS &&
         machine.python_architecture == Architecture::Arm64 && s.batch >= 16 && w.dilation_h == 1 &&
         w.dilation_w == 1 && w.kernel_h < 17 && w.kernel_w < 17 && w.pad_h < w.kernel_h &&
         w.pad_w < w.kernel_w;
}

// The implicit matrix product of each pass: the forward (cells x out_channels x depth per
// image), the input's gradient and the weight's, each reading and writing its operands once
// (the cpu's im2col buffer too).
detail::KernelCost product_cost(const char* name, double m, double n, double k, double bytes,
                                ScalarType dtype) {
  return detail::matmul_cost(name, {.m = m, .n = n, .k = k}, bytes, dtype);
}

// slow_conv_dilated2d's backward, the cpu's after an NNPACK forward: per image, in order, the
// columns' gradient (depth x cells = weight^T @ g) folded back by col2im, then the image's columns
// by im2col and the weight's gradient (out x depth = g @ columns^T). The products are one
// Accelerate call per image; im2col and col2im run on one core. The input's gradient is
// skipped where the input needs none (convolution_backward's output_mask), as for a first layer.
void launch_dilated_backward(const Tensor& g, const Tensor& input, const Tensor& weight,
                             const ConvShape& s, bool input_grad) {
  const auto batch = static_cast<double>(s.batch);
  const auto depth = static_cast<double>(s.depth());
  const auto cells = static_cast<double>(s.cells());
  const auto out = static_cast<double>(s.out_channels);
  const double columns = batch * depth * cells;
  const Device device = g.device();
  constexpr const char* kName = "aten::slow_conv_dilated2d_backward";
  const auto product = [&](detail::MatmulShape shape) {
    detail::launch(
        detail::matmul_cost(kName, shape, detail::nbytes(g) + detail::nbytes(weight) + 4 * columns),
        device);
  };
  const auto copy = [&](detail::OpKind kind) {  // im2col or col2im, on one core
    detail::launch({.name = kName,
                    .kind = kind,
                    .bytes = 4 * columns + detail::nbytes(input),
                    .elements = columns},
                   device);
  };
  if (input_grad) {
    product({.m = depth, .n = cells, .k = out, .batch = batch});
    copy(detail::OpKind::Col2im);
  }
  copy(detail::OpKind::Im2col);
  product({.m = out, .n = depth, .k = cells, .batch = batch});
}

std::vector<Tensor> conv2d_backward(const Tensor& g, const Tensor& input, const Tensor& weight,
                                    bool with_bias, const ConvShape& s) {
  const Device device = g.device();
  const bool values = detail::have_values({&g, &input, &weight});
  const ScalarType dtype = input.scalar_type();
  Tensor dx = detail::allocate(input.sizes().vec(), dtype, device, values);
  Tensor dw = detail::allocate(weight.sizes().vec(), dtype, device, values);
  const bool input_grad = input.requires_grad();
  if (uses_nnpack(s, device, dtype)) {
    launch_dilated_backward(g, input, weight, s, input_grad);
  } else {
    const auto rows = static_cast<double>(s.batch * s.cells());
    const double cols_bytes = device.is_cpu() ? static_cast<double>(elementSize(dtype)) * rows *
                                                    static_cast<double>(s.depth())
                                              : 0.0;
    if (input_grad) {
      detail::launch(
          product_cost("aten::convolution_backward", static_cast<double>(s.depth()), rows,
                       static_cast<double>(s.out_channels),
                       detail::nbytes(g) + detail::nbytes(weight) + detail::nbytes(dx) + cols_bytes,
                       dtype),
          device);
    }
    detail::launch(
        product_cost("aten::convolution_backward", static_cast<double>(s.out_channels),
                     static_cast<double>(s.depth()), rows,
                     detail::nbytes(g) + detail::nbytes(input) + detail::nbytes(dw) + cols_bytes,
                     dtype),
        device);
  }
  std::vector<Tensor> grads{dx, dw};
  Tensor db;
  if (with_bias) {
    db = detail::allocate({s.out_channels}, dtype, device, values);
    detail::launch({.name = "aten::convolution_backward",
                    .kind = detail::OpKind::Reduction,
                    .bytes = detail::nbytes(g),
                    .dtype = dtype},
                   device);
    grads.push_back(db);
  }
  if (!values) return grads;
  const kernels::Summation& kernel = kernels::summation_on(device);
  const std::int64_t depth = s.depth(), cells = s.cells(), out = s.out_channels;
  const std::int64_t image = s.window.channels * s.window.height * s.window.width;
  std::vector<float> cols(static_cast<std::size_t>(depth * cells)), cols_t(cols.size()),
      product(cols.size()), dw_image(static_cast<std::size_t>(out * depth));
  const detail::ValuesAs<float> gv(g), xv(input), wv(weight);
  detail::ResultAs<float> dxv(dx), dwv(dw);
  float* dxd = dxv.data();
  float* dwd = dwv.data();
  std::fill_n(dxd, dx.numel(), 0.0f);
  std::fill_n(dwd, dw.numel(), 0.0f);
  for (std::int64_t b = 0; b < s.batch; ++b) {
    const float* gb = gv.data() + b * out * cells;
    // the input's gradient: weight^T (depth, out) @ g (out, cells), folded back onto the image
    kernel.matmul_transposed_a(wv.data(), gb, product.data(), depth, out, cells);
    kernels::col2im_add(product.data(), dxd + b * image, s.window);
    // the weight's: g (out, cells) @ cols^T (cells, depth), summed over the images in order
    kernels::im2col(xv.data() + b * image, cols.data(), s.window);
    kernels::transpose_last_two(cols.data(), cols_t.data(), 1, depth, cells);
    kernel.matmul(gb, cols_t.data(), dw_image.data(), out, cells, depth);
    for (std::size_t i = 0; i < dw_image.size(); ++i) dwd[i] += dw_image[i];
  }
  dxv.store();
  dwv.store();
  if (with_bias) {  // each image's sum per channel, then those sums over the images
    std::vector<float> per_image(static_cast<std::size_t>(s.batch * out));
    kernel.sum_over_axis(gv.data(), per_image.data(), s.batch * out, cells, 1, 1.0);
    detail::ResultAs<float> dbv(db);
    kernel.sum_over_axis(per_image.data(), dbv.data(), 1, s.batch, out, 1.0);
    dbv.store();
  }
  return grads;
}

}  // namespace

Tensor conv2d(const Tensor& input, const Tensor& weight, const Conv2dFuncOptions& options) {
  if (auto cast =
          detail::autocast_inputs(detail::AutocastOp::Conv2d, {input, weight, options.bias()})) {
    const detail::AutocastExclusion exclusion(cast->device);
    Conv2dFuncOptions cast_options = options;
    cast_options.bias(cast->inputs[2]);
    return conv2d(cast->inputs[0], cast->inputs[1], cast_options);
  }
  const Tensor& bias = options.bias();
  check_same_type(input, weight, bias);
  detail::dispatch_floating(input.scalar_type(), "slow_conv2d_cpu", detail::Float64::NotImplemented,
                            [](auto) {});
  const ConvShape s = conv_shape(input, weight, options);
  const Device device = input.device();
  std::vector<std::int64_t> out_shape{s.out_channels, s.window.out_h, s.window.out_w};
  if (input.dim() == 4) out_shape.insert(out_shape.begin(), s.batch);
  const bool values = detail::have_values({&input, &weight, &bias});
  const ScalarType dtype = input.scalar_type();
  Tensor result = detail::allocate(out_shape, dtype, device, values);
  const auto rows = static_cast<double>(s.batch * s.cells());
  const double io_bytes = detail::nbytes(input) + detail::nbytes(weight) + detail::nbytes(result);
  if (uses_nnpack(s, device, dtype)) {
    detail::launch({.name = "aten::_nnpack_spatial_convolution",
                    .kind = detail::OpKind::Nnpack,
                    .bytes = io_bytes,
                    .flops = 2 * rows * static_cast<double>(s.out_channels * s.depth())},
                   device);
  } else {
    const double cols_bytes = device.is_cpu() ? static_cast<double>(elementSize(dtype)) * rows *
                                                    static_cast<double>(s.depth())
                                              : 0.0;
    detail::launch(product_cost("aten::convolution", rows, static_cast<double>(s.out_channels),
                                static_cast<double>(s.depth()), io_bytes + cols_bytes, dtype),
                   device);
  }
  if (values) {
    const kernels::Summation& kernel = kernels::summation_on(device);
    const std::int64_t depth = s.depth(), cells = s.cells(), out = s.out_channels;
    const std::int64_t image = s.window.channels * s.window.height * s.window.width;
    std::vector<float> cols(static_cast<std::size_t>(depth * cells));
    const detail::ValuesAs<float> xv(input), wv(weight), bv(bias);
    detail::ResultAs<float> yv(result);
    for (std::int64_t b = 0; b < s.batch; ++b) {
      kernels::im2col(xv.data() + b * image, cols.data(), s.window);
      float* y = yv.data() + b * out * cells;
      kernel.matmul(wv.data(), cols.data(), y, out, depth, cells);
      if (!bias.defined()) continue;
      for (std::int64_t o = 0; o < out; ++o) {
        for (std::int64_t c = 0; c < cells; ++c) y[o * cells + c] += bv.data()[o];
      }
    }
    yv.store();
  }
  if (!detail::should_record({&input, &weight, &bias})) return result;
  std::vector<Tensor> inputs{input, weight};
  if (bias.defined()) inputs.push_back(bias);
  detail::record(result, "ConvolutionBackward0", inputs, [input, weight, bias, s](const Tensor& g) {
    return conv2d_backward(g, input, weight, bias.defined(), s);
  });
  return result;
}

}  // namespace engine::nn::functional
