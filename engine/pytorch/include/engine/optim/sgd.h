#pragma once
// torch::optim::SGD with momentum, dampening and weight decay, as torch/optim/sgd.py updates:
// buf = momentum * buf + (1 - dampening) * grad (buf = grad at the first step); p -= lr * buf.

#include <vector>

#include "engine/optim/optimizer.h"

namespace engine::optim {

class SGDOptions {
 public:
  explicit SGDOptions(double lr) : lr_(lr) {}
  SGDOptions& momentum(double value) {
    momentum_ = value;
    return *this;
  }
  SGDOptions& dampening(double value) {
    dampening_ = value;
    return *this;
  }
  SGDOptions& weight_decay(double value) {
    weight_decay_ = value;
    return *this;
  }
  SGDOptions& nesterov(bool value) {
    nesterov_ = value;
    return *this;
  }
  double lr() const noexcept { return lr_; }
  double momentum() const noexcept { return momentum_; }
  double dampening() const noexcept { return dampening_; }
  double weight_decay() const noexcept { return weight_decay_; }
  bool nesterov() const noexcept { return nesterov_; }

 private:
  double lr_;
  double momentum_ = 0;
  double dampening_ = 0;
  double weight_decay_ = 0;
  bool nesterov_ = false;
};

class SGD : public Optimizer {
 public:
  SGD(std::vector<Tensor> params, SGDOptions options);
  void step() override;

 private:
  SGDOptions options_;
  // With momentum: a clone of the first gradient, on the parameter's device; undefined before.
  std::vector<Tensor> momentum_buffers_;
};

}  // namespace engine::optim
