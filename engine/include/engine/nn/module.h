#pragma once
// Models torch::nn::Module and torch::nn::ModuleHolder (torch/csrc/api/include/torch/nn/).
// A module owns named parameters; to(device) moves them in place, so every handle to a
// parameter (an optimizer's, say) sees the new device, as `param.data = ...` does in PyTorch.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/device.h"
#include "engine/tensor.h"

namespace engine::nn {

class Module {
 public:
  virtual ~Module() = default;
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  std::vector<Tensor> parameters() const;
  const std::vector<std::pair<std::string, Tensor>>& named_parameters() const { return params_; }
  void to(Device device);

 protected:
  Tensor& register_parameter(std::string name, Tensor tensor);

 private:
  std::vector<std::pair<std::string, Tensor>> params_;
};

// Shared ownership of a module implementation, with -> and (), as LibTorch's TORCH_MODULE
// types: `Linear model(3, 2); model->to(device); auto y = model(x);`.
template <typename Impl>
class ModuleHolder {
 public:
  template <typename... Args>
  explicit ModuleHolder(Args&&... args) : impl_(std::make_shared<Impl>(std::forward<Args>(args)...)) {}

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
