// A model's training run, whatever its family (each family makes its own: family.h), and what
// the families' runs share: the optimizer, the parameters a config freezes, and the loop of a
// classifier.

#include "planner/training_step.h"

#include "family_registry.h"
#include "run_state.h"

namespace planner {

using engine::Tensor;

namespace runs {

std::unique_ptr<engine::optim::Optimizer> make_optimizer(const std::string& kind,
                                                         std::vector<Tensor> params,
                                                         double weight_decay) {
  namespace optim = engine::optim;
  if (kind == "sgd")
    return std::make_unique<optim::SGD>(std::move(params), optim::SGDOptions(6e-4).momentum(0.9));
  if (kind == "adam")
    return std::make_unique<optim::Adam>(std::move(params), optim::AdamOptions(6e-4));
  return std::make_unique<optim::AdamW>(
      std::move(params), optim::AdamWOptions(6e-4).betas({0.9, 0.95}).weight_decay(weight_decay));
}

Tensor ParameterMaker::keep(Tensor t) {
  t.requires_grad_(training_this_block());
  all_.push_back(t);
  return t;
}
Tensor ParameterMaker::weight(engine::IntArrayRef shape, double scale) {
  return keep((engine::randn(shape) * scale).to(device_));
}
Tensor ParameterMaker::zeros(engine::IntArrayRef shape) {
  return keep(engine::zeros(shape).to(device_));
}
Tensor ParameterMaker::ones(engine::IntArrayRef shape) {
  return keep(engine::ones(shape).to(device_));
}
std::vector<Tensor> ParameterMaker::trained() const {
  std::vector<Tensor> out;
  for (const Tensor& t : all_) {
    if (t.requires_grad()) out.push_back(t);
  }
  return out;
}

Precision::Precision(const std::string& autocast, engine::Device device)
    : device_type_(device.is_mps() ? "mps" : "cpu") {
  if (autocast == "off") return;
  dtype_ = autocast == "float16" ? engine::kFloat16 : engine::kBFloat16;
  if (autocast == "float16") scaler_.emplace(device_type_);
}

void Precision::enter(std::optional<engine::py::torch::autocast>& region) const {
  if (dtype_) region.emplace(device_type_, *dtype_);
}

void Precision::backward(const Tensor& loss) {
  if (scaler_) {
    scaler_->scale(loss).backward();
  } else {
    loss.backward();
  }
}

void Precision::unscale(const engine::optim::Optimizer& optimizer) {
  if (scaler_) scaler_->unscale_(optimizer);
}

void Precision::step(engine::optim::Optimizer& optimizer) {
  if (scaler_) {
    scaler_->step(optimizer);
  } else {
    optimizer.step();
  }
}

void Precision::update() {
  if (scaler_) scaler_->update();
}

Tensor run_block(bool checkpointed, bool trains, const std::function<Tensor(const Tensor&)>& block,
                 const Tensor& x) {
  if (!checkpointed || !engine::GradMode::is_enabled() || !(trains || x.requires_grad()))
    return block(x);
  return engine::py::torch::utils::checkpoint::checkpoint(
      [block](const std::vector<Tensor>& args) { return block(args[0]); }, {x}, false);
}

Tensor ClassifierRun::iterate() {
  Tensor l;
  for (std::int64_t micro = 0; micro < micro_batches; ++micro) {
    {
      std::optional<engine::py::torch::autocast> region;
      precision.enter(region);
      l = loss(batch());
      // the mean over the micro-batches, as one batch of them all would give (a loop that does
      // not accumulate divides nothing)
      if (micro_batches > 1) l = l / static_cast<double>(micro_batches);
    }
    precision.backward(l);
  }
  precision.step(*optimizer);
  precision.update();
  optimizer->zero_grad();
  return l;
}

void ClassifierRun::estimate_loss(int eval_iters) {
  engine::NoGradGuard no_grad;
  set_training(false);
  std::optional<engine::py::torch::autocast> region;
  precision.enter(region);
  for (int k = 0; k < eval_iters; ++k) static_cast<void>(loss(batch()).item<float>());
  set_training(true);
}

void ClassifierRun::infer() {
  engine::NoGradGuard no_grad;
  std::optional<engine::py::torch::autocast> region;
  precision.enter(region);
  static_cast<void>(loss(batch()));
}

}  // namespace runs

TrainingRun::TrainingRun(const ModelConfig& config, engine::Device device, bool compiled)
    : state_(family_of(config).make_run(config, device, compiled)) {}
TrainingRun::~TrainingRun() = default;

Tensor TrainingRun::iterate() { return state_->iterate(); }

void TrainingRun::estimate_loss(int eval_iters) { state_->estimate_loss(eval_iters); }

void TrainingRun::infer() { state_->infer(); }

std::int64_t TrainingRun::parameter_count(bool trained_only) const {
  std::int64_t count = 0;
  for (const Tensor& t : state_->parameters()) {
    if (!trained_only || t.requires_grad()) count += t.numel();
  }
  return count;
}

std::int64_t parameter_count(const ModelConfig& config, bool trained_only) {
  engine::sim::ShapeOnlyGuard shape_only;
  const TrainingRun run(config, engine::Device("cpu"), false);
  return run.parameter_count(trained_only);
}

}  // namespace planner
