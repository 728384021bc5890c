#include "engine/optim/adam.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/python_format.h"
#include "kernels/portable_math.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/tensor_impl.h"

namespace engine::optim {

namespace {

// torch.optim.Adam.__init__'s checks, in its order (AdamW's are the same), before the list's.
const AdamOptions& checked(const AdamOptions& options) {
  const auto [beta1, beta2] = options.betas();
  if (options.lr() < 0) throw ValueError("Invalid learning rate: " + py::str(options.lr()));
  if (options.eps() < 0) throw ValueError("Invalid epsilon value: " + py::str(options.eps()));
  if (beta1 < 0 || beta1 >= 1)
    throw ValueError("Invalid beta parameter at index 0: " + py::str(beta1));
  if (beta2 < 0 || beta2 >= 1)
    throw ValueError("Invalid beta parameter at index 1: " + py::str(beta2));
  if (options.weight_decay() < 0)
    throw ValueError("Invalid weight_decay value: " + py::str(options.weight_decay()));
  return options;
}

}  // namespace

Adam::Adam(std::vector<Tensor> params, AdamOptions options, bool decoupled_weight_decay)
    : Optimizer((checked(options), std::move(params))),
      options_(options),
      decoupled_(decoupled_weight_decay),
      state_(params_.size()) {}

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions options)
    : Adam(std::move(params), options, true) {}

namespace {

// PyTorch 2.9 runs addcmul and addcdiv through MPSGraph (Metal kernels replaced them only in
// 2026, pytorch/pytorch#196924); the other five have Metal kernels (lerp: #147644, sqrt: #148272).
bool graph_encoded(std::string_view op) { return op == "aten::addcmul_" || op == "aten::addcdiv_"; }

// The seven kernels _single_tensor_adam launches per parameter (lerp_, mul_, addcmul_, sqrt,
// div, add_, addcdiv_), with the parameter-sized tensors each one reads and writes.
void charge_adam_kernels(const Tensor& param) {
  for (const auto& [op, tensors] :
       {std::pair{"aten::lerp_.Scalar", 3}, std::pair{"aten::mul_.Scalar", 2},
        std::pair{"aten::addcmul_", 4}, std::pair{"aten::sqrt", 2},
        std::pair{"aten::div.Scalar", 2}, std::pair{"aten::add_.Scalar", 2},
        std::pair{"aten::addcdiv_", 4}}) {
    detail::launch(
        {.name = op,
         .kind = op == std::string_view("aten::sqrt") ? detail::OpKind::Transcendental
                                                      : detail::OpKind::Elementwise,
         .bytes = tensors * detail::nbytes(param),
         .elements = static_cast<double>(param.numel()),
         .encoding = graph_encoded(op) ? detail::Encoding::Graph : detail::Encoding::Metal},
        param.device());
  }
}

// torch.zeros_like(param): optimizer state on the parameter's device, with values only when
// the parameter has them.
Tensor zeros_like_parameter(const Tensor& param) {
  Tensor state = detail::allocate(param.sizes().vec(), ScalarType::Float, param.device(),
                                  param.impl().has_values());
  detail::launch({.name = "aten::zeros_like", .bytes = detail::nbytes(state)}, param.device());
  if (state.impl().has_values()) std::fill_n(state.impl().data<float>(), state.numel(), 0.0f);
  return state;
}

// The device checks of _single_tensor_adam's tensor operations, in order, each TensorIterator's:
// grad.add(param) for Adam's weight decay (a binary op, letting a 0-dim cpu operand in),
// exp_avg.lerp_(grad), exp_avg_sq.addcmul_(grad, grad), param.addcdiv_(exp_avg, denom) with
// denom computed from exp_avg_sq. They meet two devices when the model moves after a step and
// its state stays behind.
void check_adam_devices(const Tensor& param, const Tensor& grad, Device exp_avg, Device exp_avg_sq,
                        bool l2_decay) {
  using detail::check_all_same_device;
  constexpr auto kNoScalars = detail::CpuScalars::Rejected;
  const bool scalar = grad.dim() == 0;  // grad, param and state share one shape
  detail::IterOperand decayed{grad};
  if (l2_decay)
    decayed.device = check_all_same_device({}, {decayed, param}, detail::CpuScalars::Allowed);
  const detail::IterOperand first{exp_avg, scalar}, second{exp_avg_sq, scalar};
  check_all_same_device({first}, {first, decayed}, kNoScalars);
  check_all_same_device({second}, {second, decayed, decayed}, kNoScalars);
  check_all_same_device({param}, {param, first, second}, kNoScalars);
}

}  // namespace

// torch/optim/adam.py's _single_tensor_adam: the bias corrections in double (Python floats),
// the tensor arithmetic in float32.
void Adam::step() {
  NoGradGuard no_grad;
  detail::spend_framework(
      decoupled_ ? "AdamW.step" : "Adam.step",
      decoupled_ ? detail::FrameworkWork::AdamWStep : detail::FrameworkWork::AdamStep);
  const auto [beta1, beta2] = options_.betas();
  const auto decay = static_cast<float>(options_.weight_decay());
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const Tensor grad = params_[i].grad();
    if (!grad.defined()) continue;
    State& s = state_[i];
    const bool fresh = s.step == 0;  // its state is made below, on the parameter's device
    check_adam_devices(params_[i], grad, fresh ? params_[i].device() : s.exp_avg.device(),
                       fresh ? params_[i].device() : s.exp_avg_sq.device(),
                       decay != 0 && !decoupled_);
    detail::spend_framework(
        decoupled_ ? "AdamW.step" : "Adam.step",
        decoupled_ ? detail::FrameworkWork::AdamWParameter : detail::FrameworkWork::AdamParameter);
    if (decay != 0) {
      detail::launch({.name = decoupled_ ? "aten::mul_.Scalar" : "aten::add.Tensor",
                      .bytes = 3 * detail::nbytes(grad),
                      .elements = static_cast<double>(grad.numel())},
                     grad.device());
    }
    charge_adam_kernels(params_[i]);
    if (s.step++ == 0) {
      s.exp_avg = zeros_like_parameter(params_[i]);
      s.exp_avg_sq = zeros_like_parameter(params_[i]);
    }
    if (!detail::have_values({&params_[i], &grad})) continue;  // shape-only: costs only
    require_float32(params_[i]);
    const auto n = static_cast<std::size_t>(params_[i].numel());
    // Python's beta ** step, by squaring: the C library's pow differs between hosts in its
    // last bit (Note [The same bits on every host]).
    const double correction1 = 1 - kernels::portable::integer_power(beta1, s.step);
    const double correction2 = 1 - kernels::portable::integer_power(beta2, s.step);
    const auto step_size = static_cast<float>(options_.lr() / correction1);
    const auto correction2_sqrt = static_cast<float>(std::sqrt(correction2));
    const auto weight1 = static_cast<float>(1 - beta1), keep2 = static_cast<float>(beta2);
    const auto weight2 = static_cast<float>(1 - beta2), eps = static_cast<float>(options_.eps());
    const auto shrink = static_cast<float>(1 - options_.lr() * options_.weight_decay());
    float* p = params_[i].impl().data<float>();
    const float* g = grad.impl().data<float>();
    float* exp_avg = s.exp_avg.impl().data<float>();
    float* exp_avg_sq = s.exp_avg_sq.impl().data<float>();
    for (std::size_t j = 0; j < n; ++j) {
      if (decoupled_) p[j] *= shrink;  // AdamW: decay the weight itself, before the update
      const float d = decay != 0 && !decoupled_ ? g[j] + decay * p[j] : g[j];
      float& m = exp_avg[j];
      m = m + weight1 * (d - m);  // lerp(m, d, 1 - beta1), the form PyTorch uses below 0.5
      float& v = exp_avg_sq[j];
      v = v * keep2 + weight2 * d * d;
      const float denom = std::sqrt(v) / correction2_sqrt + eps;
      p[j] = p[j] + -step_size * (m / denom);
    }
  }
}

}  // namespace engine::optim
