// torch.nn.functional.dropout in training mode (aten/src/ATen/native/Dropout.cpp): a random
// mask keeps each element with probability 1 - p and scales it by 1 / (1 - p).

#include <string>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/python_format.h"
#include "machine/process.h"
#include "mps/stream.h"
#include "random/samplers.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {

Tensor dropout(const Tensor& input, const DropoutFuncOptions& options) {
  const double p = options.p();
  const bool training = options.training();
  if (p < 0 || p > 1) {
    throw ValueError("dropout probability has to be between 0 and 1, but got " + py::str(p));
  }
  if (!training || p == 0) return input;
  detail::require_float(input, "dropout");
  const bool values = detail::have_values({&input});
  Tensor mask = detail::allocate(input.sizes().vec(), ScalarType::Float, input.device(), values);
  detail::launch({.name = "aten::bernoulli_",
                  .kind = detail::OpKind::Random,
                  .bytes = detail::nbytes(mask),
                  .elements = static_cast<double>(mask.numel())},
                 input.device());
  if (values) {
    float* m = mask.impl().data<float>();
    detail::Process& process = detail::process();
    detail::fill_uniform(m, mask.numel(), process.generator_for(input.device()), 0.0, 1.0,
                         process.cpu_kernels());
    const auto scale = p < 1 ? static_cast<float>(1.0 / (1.0 - p)) : 0.0f;
    for (std::int64_t i = 0; i < mask.numel(); ++i)
      m[i] = m[i] >= static_cast<float>(p) ? scale : 0.0f;
  }
  Tensor out = detail::allocate(input.sizes().vec(), ScalarType::Float, input.device(), values);
  detail::launch({.name = "aten::mul.Tensor",
                  .bytes = 3 * detail::nbytes(input),
                  .elements = static_cast<double>(input.numel())},
                 input.device());
  if (values) {
    const float* x = input.impl().data<float>();
    const float* m = mask.impl().data<float>();
    float* o = out.impl().data<float>();
    for (std::int64_t i = 0; i < input.numel(); ++i) o[i] = x[i] * m[i];
  }
  if (!detail::should_record({&input})) return out;
  // The fused native_dropout serves cuda, xpu and lazy tensors only (is_fused_kernel_acceptable):
  // on the cpu and mps the result is input * mask, and its node is the multiplication's.
  detail::record(out, "MulBackward0", {input},
                 [mask](const Tensor& g) { return std::vector<Tensor>{g * mask}; });
  return out;
}

}  // namespace engine::nn::functional
