#include "engine/optim/sgd.h"

#include "engine/autograd.h"
#include "runtime/stream.h"
#include "tensor_impl.h"

namespace engine::optim {

SGD::SGD(std::vector<Tensor> params, SGDOptions options)
    : Optimizer(std::move(params)), options_(options), momentum_buffers_(params_.size()) {}

namespace {

// The kernels _single_tensor_sgd launches per parameter, each reading and writing `tensors`
// parameter-sized tensors.
void charge(const Tensor& param, std::string_view op, int tensors) {
  detail::launch({.name = op, .bytes = tensors * detail::nbytes(param), .elements = static_cast<double>(param.numel())},
                 param.device());
}

}  // namespace

// The float arithmetic of torch/optim/sgd.py's _single_tensor_sgd, one element at a time.
void SGD::step() {
  NoGradGuard no_grad;
  const auto lr = static_cast<float>(options_.lr());
  const auto momentum = static_cast<float>(options_.momentum());
  const auto keep = static_cast<float>(1.0 - options_.dampening());
  const auto decay = static_cast<float>(options_.weight_decay());
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const Tensor grad = params_[i].grad();
    if (!grad.defined()) continue;
    if (decay != 0) charge(params_[i], "aten::add.Tensor", 3);
    Tensor& buffer = momentum_buffers_[i];
    const bool first = !buffer.defined();
    if (momentum != 0 && first) {
      // torch.clone(grad).detach(): allocated on the device (its values are set below).
      buffer = detail::allocate(grad.sizes().vec(), ScalarType::Float, grad.device(), grad.impl().has_values());
    }
    if (momentum != 0) charge(params_[i], first ? "aten::clone" : "aten::mul_ + aten::add_", 3);
    charge(params_[i], "aten::add_.Tensor", 3);
    if (!detail::have_values({&params_[i], &grad})) continue;
    float* p = params_[i].impl().data<float>();
    const float* g = grad.impl().data<float>();
    float* buf = momentum != 0 ? buffer.impl().data<float>() : nullptr;
    for (std::int64_t j = 0; j < params_[i].numel(); ++j) {
      float d = decay != 0 ? g[j] + decay * p[j] : g[j];
      if (momentum != 0) {
        float& b = buf[j];
        b = first ? d : b * momentum + d * keep;
        d = options_.nesterov() ? d + b * momentum : b;
      }
      p[j] = p[j] + d * -lr;
    }
  }
}

}  // namespace engine::optim
