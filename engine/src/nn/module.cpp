#include "engine/nn/module.h"

namespace engine::nn {

std::vector<Tensor> Module::parameters() const {
  std::vector<Tensor> result;
  result.reserve(params_.size());
  for (const auto& [name, tensor] : params_) result.push_back(tensor);
  return result;
}

void Module::to(Device device) {
  for (auto& [name, tensor] : params_) tensor.set_data(tensor.to(device));
}

Tensor& Module::register_parameter(std::string name, Tensor tensor) {
  params_.emplace_back(std::move(name), std::move(tensor));
  return params_.back().second;
}

}  // namespace engine::nn
