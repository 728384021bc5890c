// torch.nn.utils.clip_grad_norm_ (torch/nn/utils/clip_grad.py, PyTorch 2): one norm per
// gradient, the norm of those norms, and every gradient multiplied by
// min(1, max_norm / (total + 1e-6)), computed on the device without reading it back; LibTorch's
// (torch/csrc/api/src/nn/utils/clip_grad.cpp) then reads the norm.

#include <cmath>

#include "engine/factories.h"
#include "engine/nn/utils.h"
#include "mps/stream.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine {

Tensor py::torch::nn::utils::clip_grad_norm_(const std::vector<Tensor>& parameters,
                                             double max_norm) {
  std::vector<Tensor> grads;
  for (const Tensor& p : parameters) {
    if (p.grad().defined()) grads.push_back(p.grad());
  }
  if (grads.empty()) return zeros({});
  const Device device = grads.front().device();
  double squares = 0;
  bool values = true;
  for (const Tensor& g : grads) {
    detail::launch({.name = "aten::linalg_vector_norm",
                    .kind = detail::OpKind::Reduction,
                    .bytes = detail::nbytes(g)},
                   g.device());
    values = values && detail::have_values({&g});
    if (!values) continue;
    const detail::ValuesAs<float> v(g);
    for (std::int64_t i = 0; i < g.numel(); ++i)
      squares += static_cast<double>(v.data()[i]) * v.data()[i];
  }
  detail::launch({.name = "aten::stack + linalg_vector_norm + div + clamp",
                  .kind = detail::OpKind::Reduction,
                  .bytes = 8.0 * static_cast<double>(grads.size())},
                 device);
  // The norms keep the gradients' dtype; the engine adds their squares in double.
  Tensor total = detail::allocate({}, grads.front().scalar_type(), device, values);
  const double norm = std::sqrt(squares);
  if (values) {
    detail::ResultAs<float> result(total);
    result.data()[0] = static_cast<float>(norm);
    result.store();
  }
  const auto factor = static_cast<float>(std::min(1.0, max_norm / (norm + 1e-6)));
  for (const Tensor& g : grads) {
    detail::launch({.name = "aten::mul_.Tensor",
                    .bytes = 2 * detail::nbytes(g),
                    .elements = static_cast<double>(g.numel())},
                   g.device());
    if (!values) continue;
    const detail::ValuesAs<float> v(g);
    detail::ResultAs<float> scaled(g);
    for (std::int64_t i = 0; i < g.numel(); ++i) scaled.data()[i] = v.data()[i] * factor;
    scaled.store();
  }
  return total;
}

double nn::utils::clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm) {
  return py::torch::nn::utils::clip_grad_norm_(parameters, max_norm).item<double>();
}

}  // namespace engine
