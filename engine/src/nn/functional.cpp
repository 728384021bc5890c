// torch.nn.functional.linear (aten/src/ATen/native/Linear.cpp; on mps, the _mps_linear kernel
// with its own device checks) and its gradient.

#include "engine/nn/functional.h"

#include <string>
#include <vector>

#include "autograd/record.h"
#include "device_checks.h"
#include "engine/errors.h"
#include "engine/ops.h"
#include "kernels/kernels.h"
#include "runtime/stream.h"
#include "tensor_impl.h"

namespace engine::nn::functional {
namespace {

// The MPS kernel runs when any argument is on mps, and it requires all of them there; without
// one on mps, all are on the cpu.
Device linear_device(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (detail::any_on_mps({&input, &weight, &bias})) detail::check_mps_linear_arguments(input, weight, bias);
  return input.device();
}

// dx = g W, dW = g^T x, db = the sum of g over the rows: two matrix products and a reduction.
std::vector<Tensor> linear_backward(const Tensor& g, const Tensor& input, const Tensor& weight,
                                    bool with_bias, std::int64_t rows, std::int64_t in,
                                    std::int64_t out) {
  const Device device = g.device();
  const bool values = detail::have_values({&g, &input, &weight});
  Tensor dx = detail::allocate(input.sizes().vec(), ScalarType::Float, device, values);
  Tensor dw = detail::allocate({out, in}, ScalarType::Float, device, values);
  const auto r = static_cast<double>(rows), i = static_cast<double>(in), o = static_cast<double>(out);
  detail::launch(detail::matmul_cost("aten::mm", {.m = r, .n = i, .k = o},
                                     detail::nbytes(g) + detail::nbytes(weight) + detail::nbytes(dx)),
                 device);
  detail::launch(detail::matmul_cost("aten::mm", {.m = o, .n = i, .k = r},
                                     detail::nbytes(g) + detail::nbytes(input) + detail::nbytes(dw)),
                 device);
  if (values) {
    const float* gd = g.impl().data<float>();
    kernels::matmul(gd, weight.impl().data<float>(), dx.impl().data<float>(), rows, out, in);
    kernels::matmul_transposed_a(gd, input.impl().data<float>(), dw.impl().data<float>(), out, rows, in);
  }
  std::vector<Tensor> grads{dx, dw};
  if (with_bias) {
    Tensor db = detail::allocate({out}, ScalarType::Float, device, values);
    detail::launch({.name = "aten::sum.dim_IntList", .kind = detail::OpKind::Reduction, .bytes = detail::nbytes(g)}, device);
    if (values) kernels::sum_over_axis(g.impl().data<float>(), db.impl().data<float>(), 1, rows, out);
    grads.push_back(db);
  }
  return grads;
}

}  // namespace

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  const Device device = linear_device(input, weight, bias);
  detail::require_float(input, "linear");
  detail::require_float(weight, "linear");
  const std::int64_t in = weight.size(1), out = weight.size(0);
  if (input.dim() == 0 || input.size(-1) != in) {
    const std::int64_t cols = input.dim() == 0 ? 1 : input.size(-1);
    const std::int64_t rows = input.dim() == 0 ? 1 : input.numel() / std::max<std::int64_t>(cols, 1);
    throw Error("mat1 and mat2 shapes cannot be multiplied (" + std::to_string(rows) + "x" +
                std::to_string(cols) + " and " + std::to_string(in) + "x" + std::to_string(out) + ")");
  }
  const std::int64_t rows = input.numel() / in;
  std::vector<std::int64_t> out_shape = input.sizes().vec();
  out_shape.back() = out;
  const bool values = detail::have_values({&input, &weight, &bias});
  Tensor result = detail::allocate(out_shape, ScalarType::Float, device, values);
  if (values) {
    kernels::linear(input.impl().data<float>(), weight.impl().data<float>(),
                    bias.defined() ? bias.impl().data<float>() : nullptr,
                    result.impl().data<float>(), rows, in, out);
  }
  detail::launch(detail::matmul_cost(bias.defined() ? "aten::addmm" : "aten::mm",
                                     {.m = static_cast<double>(rows), .n = static_cast<double>(out), .k = static_cast<double>(in)},
                                     detail::nbytes(input) + detail::nbytes(weight) + detail::nbytes(result)),
                 device);
  if (!detail::should_record({&input, &weight, &bias})) return result;
  std::vector<Tensor> inputs{input, weight};
  if (bias.defined()) inputs.push_back(bias);
  detail::record(result, bias.defined() ? "AddmmBackward0" : "MmBackward0", inputs,
                 [input, weight, bias, rows, in, out](const Tensor& g) {
                   return linear_backward(g, input, weight, bias.defined(), rows, in, out);
                 });
  return result;
}

Tensor relu(const Tensor& input) { return engine::relu(input); }
Tensor log_softmax(const Tensor& input, std::int64_t dim) { return engine::log_softmax(input, dim); }

}  // namespace engine::nn::functional
