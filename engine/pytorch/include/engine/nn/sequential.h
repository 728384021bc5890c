#pragma once
// torch::nn::Sequential: modules applied one after the other; their parameters become the
// Sequential's ("0.weight", "0.bias", "2.weight", ...).
//   Sequential model{Linear(768, 64), ReLU(), Linear(64, 3)};
// Use braces: they construct the layers left to right, so seeded initial weights match
// Python's; with parentheses C++ may construct the arguments in any order.

#include <functional>
#include <string>
#include <vector>

#include "engine/nn/module.h"

namespace engine::nn {

class SequentialImpl : public Module {
 public:
  template <typename... Holders>
  explicit SequentialImpl(Holders... modules) {
    (push_back(std::move(modules)), ...);
  }

  template <typename Impl>
  void push_back(ModuleHolder<Impl> module) {
    register_module(std::to_string(steps_.size()), module.ptr());
    steps_.push_back([impl = module.ptr()](const Tensor& x) { return impl->forward(x); });
  }

  Tensor forward(const Tensor& input) const {
    Tensor x = input;
    for (const auto& step : steps_) x = step(x);
    return x;
  }

  std::size_t size() const noexcept { return steps_.size(); }

 private:
  std::vector<std::function<Tensor(const Tensor&)>> steps_;
};

class Sequential : public ModuleHolder<SequentialImpl> {
 public:
  using ModuleHolder<SequentialImpl>::ModuleHolder;
};

}  // namespace engine::nn
