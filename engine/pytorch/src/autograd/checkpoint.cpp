// torch.utils.checkpoint (engine/checkpoint.h): the region's forward without a graph, and a
// node whose backward recomputes the region with one and backpropagates through it.

#include "engine/checkpoint.h"

#include <algorithm>
#include <array>
#include <iostream>
#include <optional>
#include <utility>

#include "autograd/record.h"
#include "engine/autocast.h"
#include "engine/autograd.h"

namespace engine::py::torch::utils::checkpoint {
namespace {

// While one is alive, operations record their graph, whatever the mode was (torch.enable_grad):
// the recomputation runs inside backward, which records nothing.
class EnableGrad {
 public:
  EnableGrad() : previous_(GradMode::is_enabled()) { GradMode::set_enabled(true); }
  ~EnableGrad() { GradMode::set_enabled(previous_); }
  EnableGrad(const EnableGrad&) = delete;
  EnableGrad& operator=(const EnableGrad&) = delete;

 private:
  bool previous_;
};

// The autocast state of the cpu and mps around the region's forward pass, which the
// recomputation runs under again, as checkpoint.py keeps device_autocast_kwargs and
// cpu_autocast_kwargs: backward runs outside the `with torch.autocast()` of the forward pass.
struct AutocastState {
  struct Device {
    DeviceType type;
    const char* name;
    bool enabled;
    ScalarType dtype;
  };
  std::array<Device, 2> devices;

  static AutocastState current() {
    const auto of = [](DeviceType type, const char* name) {
      return Device{type, name, engine::autocast::is_autocast_enabled(type),
                    engine::autocast::get_autocast_dtype(type)};
    };
    return {{of(DeviceType::CPU, "cpu"), of(DeviceType::MPS, "mps")}};
  }
};

// The recomputation: `function` again on detached copies of `args`, with its graph and the
// forward pass's autocast state, then backward from its output with the gradient that reached
// it. The parameters inside receive their gradients there; the gradients of the inputs are
// returned.
std::vector<Tensor> recompute_and_backward(
    const std::function<Tensor(const std::vector<Tensor>&)>& function,
    const std::vector<Tensor>& args, const AutocastState& autocast_state, const Tensor& grad) {
  std::vector<Tensor> inputs;
  inputs.reserve(args.size());
  for (const Tensor& arg : args) {
    Tensor input = arg.detach();
    if (arg.requires_grad()) input.requires_grad_();
    inputs.push_back(std::move(input));
  }
  Tensor output;
  {
    const EnableGrad enable_grad;
    std::array<std::optional<py::torch::autocast>, 2> regions;
    for (std::size_t i = 0; i < regions.size(); ++i) {
      const AutocastState::Device& d = autocast_state.devices[i];
      if (d.enabled) regions[i].emplace(d.name, d.dtype);
    }
    output = function(inputs);
  }
  if (output.requires_grad()) detail::run_backward(output, grad);
  std::vector<Tensor> grads;
  grads.reserve(inputs.size());
  for (const Tensor& input : inputs)
    grads.push_back(input.requires_grad() ? input.grad() : Tensor());
  return grads;
}

}  // namespace

Tensor checkpoint(const std::function<Tensor(const std::vector<Tensor>&)>& function,
                  const std::vector<Tensor>& args, bool use_reentrant) {
  const bool any_input_requires_grad =
      std::any_of(args.begin(), args.end(), [](const Tensor& t) { return t.requires_grad(); });
  const bool records = GradMode::is_enabled() && (any_input_requires_grad || !use_reentrant);
  if (GradMode::is_enabled() && use_reentrant && !any_input_requires_grad) {
    // torch/utils/checkpoint.py, CheckpointFunction.forward's check
    std::cerr << "UserWarning: None of the inputs have requires_grad=True. Gradients will be "
                 "None\n";
  }
  Tensor output;
  {
    const NoGradGuard no_grad;  // nothing inside is kept for backward
    output = function(args);
  }
  if (!records) return output;
  // The node keeps the inputs (the checkpoint's only saved tensors), the function and the
  // autocast state it ran under.
  detail::record(output, use_reentrant ? "CheckpointFunctionBackward" : "CheckpointBackward", args,
                 [function, args, state = AutocastState::current()](const Tensor& grad) {
                   return recompute_and_backward(function, args, state, grad);
                 });
  return output;
}

}  // namespace engine::py::torch::utils::checkpoint
