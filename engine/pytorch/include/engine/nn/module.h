#pragma once
// Models torch::nn::Module and torch::nn::ModuleHolder (torch/csrc/api/include/torch/nn/).
// A module owns named parameters and child modules; to(device) moves every parameter in place,
// so every handle to a parameter (an optimizer's, say) sees the new device, as
// `param.data = ...` does in PyTorch.

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/device.h"
#include "engine/scalar_type.h"
#include "engine/tensor.h"

namespace engine::nn {

class Module {
 public:
  virtual ~Module() = default;
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // Own parameters first, then each child's, in registration order (as PyTorch's parameters()).
  std::vector<Tensor> parameters() const;
  std::vector<std::pair<std::string, Tensor>> named_parameters() const;
  void to(Device device);
  // Every parameter converted to `dtype` (model->to(torch::kFloat16), Python's model.half()).
  void to(ScalarType dtype);
  // Forgets every parameter's gradient (PyTorch 2's default, set_to_none=True).
  void zero_grad();

 protected:
  // A parameter requires grad, as nn.Parameter does.
  Tensor& register_parameter(std::string name, Tensor tensor);
  void register_module(std::string name, std::shared_ptr<Module> module);

 private:
  std::vector<std::pair<std::string, Tensor>> params_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
};

// Shared ownership of a module implementation, with -> and (), as LibTorch's TORCH_MODULE
// types: `Linear model(3, 2); model->to(device); auto y = model(x);`.
template <typename Impl>
class ModuleHolder {
 public:
  // Constructs a new module from its arguments; copying a holder shares the module instead.
  template <typename... Args>
  requires(!(sizeof...(Args) == 1 && (std::is_base_of_v<ModuleHolder, std::decay_t<Args>> &&
                                      ...))) explicit ModuleHolder(Args&&... args)
      : impl_(std::make_shared<Impl>(std::forward<Args>(args)...)) {}

  Impl* operator->() const noexcept { return impl_.get(); }
  Impl& operator*() const noexcept { return *impl_; }
  const std::shared_ptr<Impl>& ptr() const noexcept { return impl_; }

  template <typename... Args>
  auto operator()(Args&&... args) const {
    return impl_->forward(std::forward<Args>(args)...);
  }

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace engine::nn
