// torch.nn.functional.linear (aten/src/ATen/native/Linear.cpp; on mps, the _mps_linear kernel
// with its own device checks) and its gradient.

#include "engine/nn/functional.h"

#include <string>
#include <vector>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/ops.h"
#include "kernels/mps_kernels.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
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
  Tensor dx;
  if (input.requires_grad()) {
    dx = detail::allocate(input.sizes().vec(), ScalarType::Float, device, values);
    detail::launch(
        detail::matmul_cost("aten::mm", {.m = r, .n = i, .k = o},
                            detail::nbytes(g) + detail::nbytes(weight) + detail::nbytes(dx)),
        device);
    if (values) {
      kernel.matmul(g.impl().data<float>(), weight.impl().data<float>(), dx.impl().data<float>(),
                    rows, out, in);
    }
  }
  Tensor dw = detail::allocate({out, in}, ScalarType::Float, device, values);
  detail::launch(
      detail::matmul_cost("aten::mm", {.m = o, .n = i, .k = r},
                          detail::nbytes(g) + detail::nbytes(input) + detail::nbytes(dw)),
      device);
  if (values) {
    kernel.matmul_transposed_a(g.impl().data<float>(), input.impl().data<float>(),
                               dw.impl().data<float>(), out, rows, in);
  }
  if (transposes_weight(device) && weight.requires_grad()) {
    detail::spend_framework("TBackward0", detail::FrameworkWork::BackwardNode);
    detail::dispatch_view("aten::t", device);
  }
  std::vector<Tensor> grads{dx, dw};
  if (with_bias) {
    Tensor db = detail::allocate({out}, ScalarType::Float, device, values);
    detail::launch({.name = "aten::sum.dim_IntList",
                    .kind = detail::OpKind::Reduction,
                    .bytes = detail::nbytes(g)},
                   device);
    if (values)
      kernels::summation_on(device).sum_over_axis(g.impl().data<float>(), db.impl().data<float>(),
                                                  1, rows, out, 1.0);
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
  const Device device = linear_device(input, weight, bias);
  detail::require_float(input, "linear");
  detail::require_float(weight, "linear");
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
  Tensor result = detail::allocate(out_shape, ScalarType::Float, device, values);
  if (values) {
    kernels::summation_on(device).linear(input.impl().data<float>(), weight.impl().data<float>(),
                                         bias.defined() ? bias.impl().data<float>() : nullptr,
                                         result.impl().data<float>(), rows, in, out);
  }
  detail::launch(
      detail::matmul_cost(bias.defined() ? "aten::addmm" : "aten::mm",
                          {.m = static_cast<double>(rows),
                           .n = static_cast<double>(out),
                           .k = static_cast<double>(in)},
                          detail::nbytes(input) + detail::nbytes(weight) + detail::nbytes(result)),
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
