#include "engine/optim/sgd.h"

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/python_format.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/tensor_impl.h"

namespace engine::optim {

namespace {

// torch.optim.SGD.__init__'s checks, in its order (before the parameter list's).
const SGDOptions& checked(const SGDOptions& options) {
  if (options.lr() < 0) throw ValueError("Invalid learning rate: " + py::str(options.lr()));
  if (options.momentum() < 0)
    throw ValueError("Invalid momentum value: " + py::str(options.momentum()));
  if (options.weight_decay() < 0)
    throw ValueError("Invalid weight_decay value: " + py::str(options.weight_decay()));
  if (options.nesterov() && (options.momentum() <= 0 || options.dampening() != 0)) {
    throw ValueError("Nesterov momentum requires a momentum and zero dampening");
  }
  return options;
}

}  // namespace

SGD::SGD(std::vector<Tensor> params, SGDOptions options)
    : Optimizer((checked(options), std::move(params))),
      options_(options),
      momentum_buffers_(params_.size()) {}

namespace {

// The kernels _single_tensor_sgd launches per parameter, each reading and writing `tensors`
// parameter-sized tensors.
void charge(const Tensor& param, std::string_view op, int tensors) {
  detail::launch({.name = op,
                  .bytes = tensors * detail::nbytes(param),
                  .elements = static_cast<double>(param.numel())},
                 param.device());
}

// The device checks of _single_tensor_sgd's tensor operations, in order, each TensorIterator's
// with a 0-dim cpu operand let in: grad.add(param) (weight decay), buf.add_(grad) (momentum),
// grad.add(buf) (Nesterov), param.add_(grad). They meet two devices when the model moves after
// a step and its buffers stay behind. Returns the device of a new buffer, the decayed gradient's.
Device check_sgd_devices(const Tensor& param, const Tensor& grad, const Tensor& buffer,
                         const SGDOptions& options) {
  using detail::check_all_same_device;
  constexpr auto kScalars = detail::CpuScalars::Allowed;
  detail::IterOperand direction{grad};  // the update, as it is computed
  if (options.weight_decay() != 0)
    direction.device = check_all_same_device({}, {direction, param}, kScalars);
  const detail::IterOperand buf{buffer.defined() ? buffer.device() : direction.device,
                                direction.zero_dim};
  if (options.momentum() != 0) {
    if (buffer.defined()) check_all_same_device({buf}, {buf, direction}, kScalars);
    direction.device =
        options.nesterov() ? check_all_same_device({}, {direction, buf}, kScalars) : buf.device;
  }
  check_all_same_device({param}, {param, direction}, kScalars);
  return buf.device;
}

}  // namespace

// The float arithmetic of torch/optim/sgd.py's _single_tensor_sgd, one element at a time.
void SGD::step() {
  NoGradGuard no_grad;
  detail::spend_framework("SGD.step", detail::FrameworkWork::SgdStep);
  const auto lr = static_cast<float>(options_.lr());
  const auto momentum = static_cast<float>(options_.momentum());
  const auto keep = static_cast<float>(1.0 - options_.dampening());
  const auto decay = static_cast<float>(options_.weight_decay());
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const Tensor grad = params_[i].grad();
    if (!grad.defined()) continue;
    Tensor& buffer = momentum_buffers_[i];
    const Device buffer_device = check_sgd_devices(params_[i], grad, buffer, options_);
    detail::spend_framework("SGD.step", detail::FrameworkWork::SgdParameter);
    if (decay != 0) charge(params_[i], "aten::add.Tensor", 3);
    const bool first = !buffer.defined();
    if (momentum != 0 && first) {
      // torch.clone(grad).detach(): allocated on the device (its values are set below).
      buffer = detail::allocate(grad.sizes().vec(), ScalarType::Float, buffer_device,
                                grad.impl().has_values());
    }
    if (momentum != 0) charge(params_[i], first ? "aten::clone" : "aten::mul_ + aten::add_", 3);
    charge(params_[i], "aten::add_.Tensor", 3);
    if (!detail::have_values({&params_[i], &grad})) continue;
    require_float32(params_[i]);
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
