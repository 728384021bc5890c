#pragma once
// torch::optim::Adam, updating as torch/optim/adam.py does in PyTorch 2:
// m = lerp(m, g, 1 - beta1); v = beta2 v + (1 - beta2) g^2;
// p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps).
// weight_decay adds weight_decay * p to the gradient (L2, not AdamW's decoupled decay).

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/optim/optimizer.h"

namespace engine::optim {

class AdamOptions {
 public:
  explicit AdamOptions(double lr = 1e-3) : lr_(lr) {}
  AdamOptions& betas(std::pair<double, double> value) { betas_ = value; return *this; }
  AdamOptions& eps(double value) { eps_ = value; return *this; }
  AdamOptions& weight_decay(double value) { weight_decay_ = value; return *this; }
  double lr() const noexcept { return lr_; }
  std::pair<double, double> betas() const noexcept { return betas_; }
  double eps() const noexcept { return eps_; }
  double weight_decay() const noexcept { return weight_decay_; }

 private:
  double lr_;
  std::pair<double, double> betas_{0.9, 0.999};
  double eps_ = 1e-8;
  double weight_decay_ = 0;
};

class Adam : public Optimizer {
 public:
  Adam(std::vector<Tensor> params, AdamOptions options = AdamOptions());
  void step() override;

 private:
  struct State {
    std::int64_t step = 0;
    std::vector<float> exp_avg, exp_avg_sq;
  };
  AdamOptions options_;
  std::vector<State> state_;
};

}  // namespace engine::optim
