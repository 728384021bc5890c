#pragma once
// torch::optim::Adam and AdamW, updating as torch/optim/adam.py and adamw.py do in PyTorch 2:
// m = lerp(m, g, 1 - beta1); v = beta2 v + (1 - beta2) g^2;
// p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps).
// Adam's weight_decay adds weight_decay * p to the gradient (L2); AdamW instead multiplies p by
// 1 - lr * weight_decay before the update (decoupled), with a default of 0.01.

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/optim/optimizer.h"

namespace engine::optim {

class AdamOptions {
 public:
  explicit AdamOptions(double lr = 1e-3) : lr_(lr) {}
  AdamOptions& betas(std::pair<double, double> value) {
    betas_ = value;
    return *this;
  }
  AdamOptions& eps(double value) {
    eps_ = value;
    return *this;
  }
  AdamOptions& weight_decay(double value) {
    weight_decay_ = value;
    return *this;
  }
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

// Its own setters return AdamWOptions&, so a fluent chain still builds an AdamWOptions.
class AdamWOptions : public AdamOptions {
 public:
  explicit AdamWOptions(double lr = 1e-3) : AdamOptions(lr) { AdamOptions::weight_decay(1e-2); }
  using AdamOptions::betas;
  using AdamOptions::eps;
  using AdamOptions::weight_decay;
  AdamWOptions& betas(std::pair<double, double> value) {
    AdamOptions::betas(value);
    return *this;
  }
  AdamWOptions& eps(double value) {
    AdamOptions::eps(value);
    return *this;
  }
  AdamWOptions& weight_decay(double value) {
    AdamOptions::weight_decay(value);
    return *this;
  }
};

class Adam : public Optimizer {
 public:
  explicit Adam(std::vector<Tensor> params, AdamOptions options = AdamOptions())
      : Adam(std::move(params), options, false) {}
  void step() override;

 protected:
  Adam(std::vector<Tensor> params, AdamOptions options, bool decoupled_weight_decay);

 private:
  // Made at a parameter's first step, on its device, as torch.zeros_like(p) makes them: the
  // optimizer's state is part of the memory bill.
  struct State {
    std::int64_t step = 0;
    Tensor exp_avg, exp_avg_sq;
  };
  AdamOptions options_;
  bool decoupled_;
  std::vector<State> state_;
};

class AdamW : public Adam {
 public:
  explicit AdamW(std::vector<Tensor> params, AdamWOptions options = AdamWOptions());
};

}  // namespace engine::optim
