#include "engine/nn/module.h"

#include "engine/autograd.h"

namespace engine::nn {

std::vector<std::pair<std::string, Tensor>> Module::named_parameters() const {
  std::vector<std::pair<std::string, Tensor>> all = params_;
  for (const auto& [child_name, child] : children_) {
    for (auto& [name, tensor] : child->named_parameters())
      all.emplace_back(child_name + "." + name, tensor);
  }
  return all;
}

std::vector<Tensor> Module::parameters() const {
  std::vector<Tensor> result;
  for (auto& [name, tensor] : named_parameters()) result.push_back(tensor);
  return result;
}

// Module._apply moves each parameter's values and, when there is one, its gradient.
void Module::to(Device device) {
  NoGradGuard no_grad;  // moving parameters is not part of any computation to differentiate
  for (const Tensor& tensor : parameters()) {
    tensor.set_data(tensor.to(device));
    if (const Tensor grad = tensor.grad(); grad.defined()) tensor.set_grad(grad.to(device));
  }
}

// Module._apply again: the parameters' values, and their gradients, converted.
void Module::to(ScalarType dtype) {
  NoGradGuard no_grad;
  for (const Tensor& tensor : parameters()) {
    tensor.set_data(tensor.to(dtype));
    if (const Tensor grad = tensor.grad(); grad.defined()) tensor.set_grad(grad.to(dtype));
  }
}

void Module::zero_grad() {
  for (const Tensor& tensor : parameters()) tensor.set_grad(Tensor());
}

Tensor& Module::register_parameter(std::string name, Tensor tensor) {
  tensor.set_requires_grad(true);
  params_.emplace_back(std::move(name), std::move(tensor));
  return params_.back().second;
}

void Module::register_module(std::string name, std::shared_ptr<Module> module) {
  children_.emplace_back(std::move(name), std::move(module));
}

}  // namespace engine::nn
