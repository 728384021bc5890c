// torch.nn.functional.linear (aten/src/ATen/native/Linear.cpp; on mps, the _mps_linear kernel
// with its own device checks) and its gradient.

#include "engine/nn/functional.h"

#include <string>
#include <vector>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/ops.h"
#include "kernels/mps_kernels.h"
#include "mps/stream.h"
#include "ops/matmul_dtypes.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

// The MPS kernel runs when any argument is on mps, and it requires all of them there; without
// one on mps, all are on the cpu.
Device linear_device(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (detail::any_on_mps({&input, &weight, &bias}))
    detail::check_mps_linear_arguments(input, weight, bias);
  return input.device();
}

// On the cpu, linear is addmm(bias, input, weight.t()): the transpose is a view PyTorch
// dispatches, and when the weight requires grad autograd records it as a TBackward0 node of its
// own, which backward runs (dispatching the transpose back). The engine charges that work where
// it happens; the values need no transposing. mps's _mps_linear takes the weight as it is.
bool transposes_weight(const Device& device) { return !device.is_mps(); }

// dx = g W, dW = g^T x, db = the sum of g over the rows: two matrix products and a reduction.
// An input that requires no grad (a batch of features) gets none: autograd's output mask skips
// its product, as it does for every node.
std::vector<Tensor> linear_backward(const Tensor& g, const Tensor& input, const Tensor& weight,
                                    bool with_bias, std::int64_t rows, std::int64_t in,
                                    std::int64_t out) {
  const Device device = g.device();
  const bool values = detail::have_values({&g, &input, &weight});
  const auto r = static_cast<double>(rows), i = static_cast<double>(in),
             o = static_cast<double>(out);
  const kernels::Summation& kernel = kernels::summation_on(device);
  const ScalarType dtype = weight.scalar_type();
  // Note [Half precision computes in float32]: each product accumulates in float32.
  const detail::ValuesAs<float> gv(values ? g : Tensor()), wv(values ? weight : Tensor()),
      xv(values ? input : Tensor());
  Tensor dx;
  if (input.requires_grad()) {
    dx = detail::allocate(input.sizes().vec(), input.scalar_type(), device, values);
    detail::launch(
        detail::matmul_cost("aten::mm", {.m = r, .n = i, .k = o},
                            detail::nbytes(g) + detail::nbytes(weight) + detail::nbytes(dx), dtype),
        device);
    if (values) {
      detail::ResultAs<float> result(dx);
      kernel.matmul(gv.data(), wv.data(), result.data(), rows, out, in);
      result.store();
    }
  }
  Tensor dw = detail::allocate({out, in}, dtype, device, values);
  detail::launch(
      detail::matmul_cost("aten::mm", {.m = o, .n = i, .k = r},
                          detail::nbytes(g) + detail::nbytes(input) + detail::nbytes(dw), dtype),
      device);
  if (values) {
    detail::ResultAs<float> result(dw);
    kernel.matmul_transposed_a(gv.data(), xv.data(), result.data(), out, rows, in);
    result.store();
  }
  if (transposes_weight(device) && weight.requires_grad()) {
    detail::spend_framework("TBackward0", detail::FrameworkWork::BackwardNode);
    detail::dispatch_view("aten::t", device);
  }
  std::vector<Tensor> grads{dx, dw};
  if (with_bias) {
    Tensor db = detail::allocate({out}, dtype, device, values);
    detail::launch({.name = "aten::sum.dim_IntList",
                    .kind = detail::OpKind::Reduction,
                    .bytes = detail::nbytes(g),
                    .dtype = dtype},
                   device);
    if (values) {
      detail::ResultAs<float> result(db);
      kernel.sum_over_axis(gv.data(), result.data(), 1, rows, out, 1.0);
      result.store();
    }
    grads.push_back(db);
  }
  return grads;
}

// An input whose last size is not the weight's: _mps_linear checks input.size(-2) and
// input.size(-1) against weight.T; on the cpu, addmm sees the input's leading dimensions folded
// into rows (_flatten_nd_linear).
[[noreturn]] void throw_linear_shape_mismatch(const Tensor& input, const Tensor& weight,
                                              const Device& device) {
  const std::int64_t in = weight.size(1), out = weight.size(0);
  const std::string weight_t = " and " + std::to_string(in) + "x" + std::to_string(out) + ")";
  if (device.is_mps()) {
    const std::int64_t rows =
        input.size(detail::wrap_dim(-2, input.dim()));  // a 1-D input: IndexError
    throw Error("linear(): input and weight.T shapes cannot be multiplied (" +
                std::to_string(rows) + "x" + std::to_string(input.size(-1)) + weight_t);
  }
  if (input.dim() == 0)
    throw Error("both arguments to linear need to be at least 1D, but they are 0D and 2D");
  const std::int64_t cols = input.size(-1);
  const std::int64_t rows = input.numel() / std::max<std::int64_t>(cols, 1);
  throw Error("mat1 and mat2 shapes cannot be multiplied (" + std::to_string(rows) + "x" +
              std::to_string(cols) + weight_t);
}

// The node PyTorch's linear leaves: on mps its own kernel's; on the cpu, at::native::linear's
// route: addmm for a matrix with a bias, addmm then a view for other inputs with one
// (_flatten_nd_linear), and without one matmul (mm, a squeezed row, or a folded batch).
const char* linear_node(const Tensor& input, bool with_bias, const Device& device) {
  if (device.is_mps()) return "LinearBackward0";
  if (with_bias) return input.dim() == 2 ? "AddmmBackward0" : "ViewBackward0";
  if (input.dim() == 2) return "MmBackward0";
  return input.dim() == 1 ? "SqueezeBackward4" : "UnsafeViewBackward0";
}

}  // namespace

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::Linear, {input, weight, bias})) {
    const detail::AutocastExclusion exclusion(cast->device);
    return linear(cast->inputs[0], cast->inputs[1], cast->inputs[2]);
  }
  const Device device = linear_device(input, weight, bias);
  detail::check_matmul_dtypes(input, weight);
  if (bias.defined()) detail::check_matmul_dtypes(bias, weight);
  detail::dispatch_floating(input.scalar_type(), "addmm_impl_cpu_", detail::Float64::NotImplemented,
                            [](auto) {});
  const std::int64_t in = weight.size(1), out = weight.size(0);
  if (input.dim() == 0 || input.size(-1) != in) throw_linear_shape_mismatch(input, weight, device);
  const std::int64_t rows = input.numel() / in;
  std::vector<std::int64_t> out_shape = input.sizes().vec();
  out_shape.back() = out;
  const bool values = detail::have_values({&input, &weight, &bias});
  if (transposes_weight(device)) {
    detail::dispatch_view("aten::t", device);
    if (detail::should_record({&weight}))
      detail::spend_framework("TBackward0", detail::FrameworkWork::RecordNode);
  }
  Tensor result = detail::allocate(out_shape, input.scalar_type(), device, values);
  if (values) {
    detail::ResultAs<float> y(result);
    kernels::summation_on(device).linear(
        detail::ValuesAs<float>(input).data(), detail::ValuesAs<float>(weight).data(),
        detail::ValuesAs<float>(bias).data(), y.data(), rows, in, out);
    y.store();
  }
  detail::launch(
      detail::matmul_cost(bias.defined() ? "aten::addmm" : "aten::mm",
                          {.m = static_cast<double>(rows),
                           .n = static_cast<double>(out),
                           .k = static_cast<double>(in)},
                          detail::nbytes(input) + detail::nbytes(weight) + detail::nbytes(result),
                          input.scalar_type()),
      device);
  if (!detail::should_record({&input, &weight, &bias})) return result;
  std::vector<Tensor> inputs{input, weight};
  if (bias.defined()) inputs.push_back(bias);
  detail::record(result, linear_node(input, bias.defined(), device), inputs,
                 [input, weight, bias, rows, in, out](const Tensor& g) {
                   return linear_backward(g, input, weight, bias.defined(), rows, in, out);
                 });
  return result;
}

Tensor relu(const Tensor& input) { return engine::relu(input); }
Tensor softmax(const Tensor& input, std::int64_t dim) { return engine::softmax(input, dim); }
Tensor log_softmax(const Tensor& input, std::int64_t dim) {
  return engine::log_softmax(input, dim);
}

}  // namespace engine::nn::functional
