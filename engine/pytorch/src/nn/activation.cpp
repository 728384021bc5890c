// torch.nn.functional.gelu, exact form (aten/src/ATen/native/Activation.cpp).

#include "autograd/record.h"
#include "engine/nn/functional.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {

Tensor gelu(const Tensor& input) {
  detail::require_float(input, "gelu");
  Tensor out = detail::allocate(input.sizes().vec(), ScalarType::Float, input.device(),
                                detail::have_values({&input}));
  detail::launch({.name = "aten::gelu",
                  .kind = detail::OpKind::Transcendental,
                  .bytes = 2 * detail::nbytes(input),
                  .elements = static_cast<double>(input.numel())},
                 input.device());
  if (out.impl().has_values())
    kernels::gelu(input.impl().data<float>(), out.impl().data<float>(), input.numel());
  if (!detail::should_record({&input})) return out;
  detail::record(out, "GeluBackward0", {input}, [input](const Tensor& g) {
    Tensor grad = detail::allocate(input.sizes().vec(), ScalarType::Float, g.device(),
                                   detail::have_values({&g, &input}));
    detail::launch({.name = "aten::gelu_backward",
                    .kind = detail::OpKind::Transcendental,
                    .bytes = 3 * detail::nbytes(input),
                    .elements = static_cast<double>(input.numel())},
                   g.device());
    if (grad.impl().has_values()) {
      kernels::gelu_backward(g.impl().data<float>(), input.impl().data<float>(),
                             grad.impl().data<float>(), input.numel());
    }
    return std::vector<Tensor>{grad};
  });
  return out;
}

}  // namespace engine::nn::functional
