#pragma once
// Internal: what a TrainingRun runs, one implementation per family (each family's file under
// families/ makes its own), and what the families share: the optimizer, the parameters a config
// freezes, and the loop of a classifier.

#include <engine/engine.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/training_step.h"

namespace planner {

struct TrainingRun::State {
  virtual ~State() = default;
  virtual engine::Tensor iterate() = 0;
  virtual void estimate_loss(int eval_iters) = 0;
  virtual void infer() = 0;
  virtual std::vector<engine::Tensor> parameters() const = 0;
};

namespace runs {

// configure_optimizers' AdamW (nanoGPT's train.py's defaults), or the plain alternatives a
// config may ask for, over the parameters that train.
std::unique_ptr<engine::optim::Optimizer> make_optimizer(const std::string& kind,
                                                         std::vector<engine::Tensor> params,
                                                         double weight_decay);

// A config's `autocast` on the device a run uses, as mixed-precision training is written: the
// forward pass and the loss in a `torch.autocast(device_type, dtype)` region; for float16 a
// torch.amp.GradScaler on the device, which scales the loss before backward, unscales the
// gradients (before clipping, where a loop clips), steps each optimizer unless a gradient
// overflowed, and updates its scale once an iteration. Off, each call is the plain one.
class Precision {
 public:
  Precision(const std::string& autocast, engine::Device device);
  // Opens the forward pass's autocast region in `region`, where the config asks for one.
  void enter(std::optional<engine::py::torch::autocast>& region) const;
  void backward(const engine::Tensor& loss);
  void unscale(const engine::optim::Optimizer& optimizer);
  void step(engine::optim::Optimizer& optimizer);
  void update();

 private:
  std::string device_type_;
  std::optional<engine::ScalarType> dtype_;
  std::optional<engine::py::torch::amp::GradScaler> scaler_;
};

// Makes a model's parameters on `device` (drawn on the cpu, then moved), frozen while the
// block being built is one `trainable_layers` leaves out.
class ParameterMaker {
 public:
  ParameterMaker(engine::Device device, std::int64_t blocks, std::int64_t trainable_layers)
      : device_(device), blocks_(blocks), trainable_(trainable_layers) {}
  // The block whose parameters come next: 0 .. blocks - 1, or `blocks` for the head.
  void enter_block(std::int64_t block) { block_ = block; }
  void enter_head() { block_ = blocks_; }
  bool training_this_block() const { return trainable_ < 0 || block_ >= blocks_ - trainable_; }
  engine::Tensor weight(engine::IntArrayRef shape, double scale = 0.02);
  engine::Tensor zeros(engine::IntArrayRef shape);
  engine::Tensor ones(engine::IntArrayRef shape);
  engine::Device device() const { return device_; }
  // Every parameter made, and those that train.
  const std::vector<engine::Tensor>& all() const { return all_; }
  std::vector<engine::Tensor> trained() const;

 private:
  engine::Tensor keep(engine::Tensor t);
  engine::Device device_;
  std::int64_t blocks_, trainable_, block_ = 0;
  std::vector<engine::Tensor> all_;
};

// One block of a model (a layer, a ResNet's stage) on `x`. Where the config checkpoints its
// blocks (`checkpointed`), grad mode is on (while training, as transformers checks) and the block
// has something to backpropagate into (`x` needs a gradient, or the block's parameters train:
// `trains`), it runs under torch.utils.checkpoint.checkpoint(use_reentrant=False), so that its
// activations are freed and recomputed by the backward pass; a frozen block below the trained
// ones records nothing to recompute. transformers passes use_reentrant=True; the two cost the
// same time and memory, and the reentrant one would leave a block whose input needs no gradient
// (a frozen embedding's) without gradients for its parameters. The backward pass calls `block`
// again, after the forward pass has returned: it must hold what it uses by value.
engine::Tensor run_block(bool checkpointed, bool trains,
                         const std::function<engine::Tensor(const engine::Tensor&)>& block,
                         const engine::Tensor& x);

// The usual loop of a classifier: a batch made on the cpu and copied to the device (blocking
// copies on mps), forward with the loss (in the config's precision), backward, the optimizer's
// step, zero_grad.
struct ClassifierRun : TrainingRun::State {
  virtual std::vector<engine::Tensor> batch() const = 0;
  virtual engine::Tensor loss(const std::vector<engine::Tensor>& batch) = 0;
  virtual void set_training(bool training) = 0;

  engine::Tensor iterate() override;
  void estimate_loss(int eval_iters) override;
  void infer() override;
  std::vector<engine::Tensor> parameters() const override { return maker.all(); }

  ClassifierRun(ParameterMaker m, const ModelConfig& config)
      : maker(std::move(m)),
        precision(config.autocast, maker.device()),
        micro_batches(config.gradient_accumulation_steps) {}
  ParameterMaker maker;
  Precision precision;
  std::int64_t micro_batches;  // gradients accumulated over them before each optimizer step
  std::unique_ptr<engine::optim::Optimizer> optimizer;
};

}  // namespace runs
}  // namespace planner
