// torch.nn.functional.dropout in training mode, as aten/src/ATen/native/Dropout.cpp's
// _dropout_impl computes it on the cpu and mps (the fused native_dropout serves cuda, xpu and lazy
// tensors only, is_fused_kernel_acceptable): noise = empty_like(input).bernoulli_(1 - p), then
// noise.div_(1 - p), then input * noise. p == 1 multiplies by a 0-dim zero instead.
//
// On the cpu, bernoulli_(1 - p) draws one double per element from the default generator and
// keeps the element when it is below 1 - p (bernoulli_kernel in
// aten/src/ATen/native/cpu/DistributionTemplates.h: at::bernoulli_distribution<double>, a 53-bit
// uniform from random64()), serially, in order: a seeded cpu dropout keeps PyTorch's elements.
// PyTorch's Linux x86 wheels draw with MKL's bernoulli instead where MKL is present; Apple
// silicon has no MKL, and the engine draws as the Macs do on every machine. On mps the mask comes
// from the engine's own mps generator, a float32 uniform below 1 - p (bernoulli_mps_ compares
// MPSGraph's uniform with the probability; a Mac's Philox draws other values).

#include <string>

#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "engine/python_format.h"
#include "machine/process.h"
#include "mps/stream.h"
#include "random/samplers.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

// bernoulli_(keep).div_(keep): 1 / keep where an element is kept, computed in float32 as div_'s
// kernel does, 0 where it is dropped, in the input's dtype. Charged as the one bernoulli_ kernel
// the cost model was fitted with; PyTorch runs div_ as a kernel of its own.
Tensor scaled_noise(const Tensor& input, double keep) {
  const bool values = detail::have_values({&input});
  Tensor noise = detail::allocate(input.sizes().vec(), input.scalar_type(), input.device(), values);
  detail::launch({.name = "aten::bernoulli_",
                  .kind = detail::OpKind::Random,
                  .bytes = detail::nbytes(noise),
                  .elements = static_cast<double>(noise.numel()),
                  .dtype = noise.scalar_type()},
                 input.device());
  if (!values) return noise;
  detail::Process& process = detail::process();
  std::vector<float> kept(static_cast<std::size_t>(noise.numel()));
  if (input.is_mps()) {
    detail::fill_uniform(kept.data(), noise.numel(), process.generator_for(input.device()), 0.0,
                         1.0, process.cpu_kernels());
    for (float& u : kept) u = u < static_cast<float>(keep) ? 1.0f : 0.0f;
  } else {
    detail::fill_bernoulli(kept.data(), noise.numel(), process.cpu_generator, keep);
  }
  const float scale = 1.0f / static_cast<float>(keep);  // 1 / (1 - p): the wrapped scalar's float
  detail::ResultAs<float> result(noise);
  for (std::size_t i = 0; i < kept.size(); ++i) result.data()[i] = kept[i] * scale;
  result.store();
  return noise;
}

}  // namespace

Tensor dropout(const Tensor& input, const DropoutFuncOptions& options) {
  const double p = options.p();
  const bool training = options.training();
  if (p < 0 || p > 1) {
    throw ValueError("dropout probability has to be between 0 and 1, but got " + py::str(p));
  }
  if (!training || p == 0 || input.numel() == 0) return input;
  if (p == 1) return input * zeros({}, TensorOptions(input.scalar_type()).device(input.device()));
  if (!input.is_floating_point()) {
    throw Error("result type Float can't be cast to the desired output type " +
                std::string(scalar_type_name(input.scalar_type())));
  }
  const Tensor noise = scaled_noise(input, 1 - p);
  Tensor out;
  {
    NoGradGuard no_grad;  // recorded below, saving only the noise, as MulBackward0 does here
    out = input * noise;
  }
  if (detail::should_record({&input})) {
    detail::record(out, "MulBackward0", {input},
                   [noise](const Tensor& g) { return std::vector<Tensor>{g * noise}; });
  }
  return out;
}

}  // namespace engine::nn::functional
