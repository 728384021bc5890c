// torch.nn.functional.gelu, exact form (aten/src/ATen/native/Activation.cpp), in float32 for
// every floating dtype (Note [Half precision computes in float32]).

#include "autograd/record.h"
#include "engine/nn/functional.h"
#include "kernels/kernels.h"
#include "mps/stream.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {

Tensor gelu(const Tensor& input) {
  detail::dispatch_floating(input.scalar_type(), "GeluKernelImpl", detail::Float64::NotImplemented,
                            [](auto) {});
  Tensor out = detail::allocate(input.sizes().vec(), input.scalar_type(), input.device(),
                                detail::have_values({&input}));
  detail::launch({.name = "aten::gelu",
                  .kind = detail::OpKind::Transcendental,
                  .bytes = 2 * detail::nbytes(input),
                  .elements = static_cast<double>(input.numel()),
                  .dtype = input.scalar_type()},
                 input.device());
  if (out.impl().has_values()) {
    detail::ResultAs<float> result(out);
    kernels::gelu(detail::ValuesAs<float>(input).data(), result.data(), input.numel());
    result.store();
  }
  if (!detail::should_record({&input})) return out;
  detail::record(out, "GeluBackward0", {input}, [input](const Tensor& g) {
    Tensor grad = detail::allocate(input.sizes().vec(), input.scalar_type(), g.device(),
                                   detail::have_values({&g, &input}));
    detail::launch({.name = "aten::gelu_backward",
                    .kind = detail::OpKind::Transcendental,
                    .bytes = 3 * detail::nbytes(input),
                    .elements = static_cast<double>(input.numel()),
                    .dtype = input.scalar_type()},
                   g.device());
    if (grad.impl().has_values()) {
      detail::ResultAs<float> result(grad);
      kernels::gelu_backward(detail::ValuesAs<float>(g).data(),
                             detail::ValuesAs<float>(input).data(), result.data(), input.numel());
      result.store();
    }
    return std::vector<Tensor>{grad};
  });
  return out;
}

}  // namespace engine::nn::functional
