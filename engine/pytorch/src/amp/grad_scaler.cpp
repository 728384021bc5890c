// torch.amp.GradScaler (torch/amp/grad_scaler.py), method by method, with its texts: scale,
// unscale_, step, update and get_scale. Its state, the scale (float32) and the growth tracker
// (int32), lives on the device of the first loss it scales, as 0-dim tensors.

#include <iostream>
#include <string>

#include "engine/amp.h"
#include "engine/autograd.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/ops.h"
#include "engine/sim.h"

namespace engine::py::torch::amp {
namespace {

void check_factors(double growth_factor, double backoff_factor) {
  if (!(growth_factor > 1.0)) throw AssertionError("The growth factor must be > 1.0.");
  if (!(backoff_factor < 1.0)) throw AssertionError("The backoff factor must be < 1.0.");
}

}  // namespace

GradScaler::GradScaler(std::string_view device, double init_scale, double growth_factor,
                       double backoff_factor, std::int64_t growth_interval, bool enabled)
    : enabled_(enabled),
      init_scale_(init_scale),
      growth_factor_(growth_factor),
      backoff_factor_(backoff_factor),
      growth_interval_(growth_interval) {
  if (device == "cuda" && enabled_) {  // no machine of the course has CUDA
    std::cerr << "UserWarning: torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                 "Disabling.\n";
    enabled_ = false;
  }
  if (enabled_) check_factors(growth_factor, backoff_factor);
}

void GradScaler::check_scale_growth_tracker(const std::string& function) const {
  if (!scale_.defined()) {
    throw AssertionError("Attempted " + function +
                         " but _scale is None.  This may indicate your script did not use "
                         "scaler.scale(loss or outputs) earlier in the iteration.");
  }
}

// outputs * scale, the scale made on the outputs' device the first time.
Tensor GradScaler::scale(const Tensor& outputs) {
  if (!enabled_) return outputs;
  if (!scale_.defined()) {
    scale_ = full({}, init_scale_, TensorOptions(kFloat32).device(outputs.device()));
    growth_tracker_ = full({}, 0, TensorOptions(kInt32).device(outputs.device()));
  }
  return outputs * scale_.to(outputs.device());
}

// Divides every gradient of the optimizer's parameters by the scale, noting on each device
// whether any was infinite or NaN, without waiting for the device. grad_scaler.py takes the
// reciprocal in float64 ("FP32 division can be imprecise"); the engine takes it in float32 on the
// device, which gives the same bits for the powers of two a GradScaler's scale always is.
void GradScaler::unscale_(const optim::Optimizer& optimizer) {
  if (!enabled_) return;
  check_scale_growth_tracker("unscale_");
  OptimizerState& state = per_optimizer_[&optimizer];
  if (state.stage == Stage::Unscaled) {
    throw Error("unscale_() has already been called on this optimizer since the last update().");
  }
  if (state.stage == Stage::Stepped) throw Error("unscale_() is being called after step().");
  NoGradGuard no_grad;
  const Tensor inv_scale = 1.0 / scale_;
  std::map<std::string, std::map<ScalarType, std::vector<Tensor>>> grads;
  for (const Tensor& param : optimizer.parameters()) {
    const Tensor grad = param.grad();
    if (!grad.defined()) continue;
    if (grad.scalar_type() == kFloat16) throw ValueError("Attempting to unscale FP16 gradients.");
    grads[grad.device().str()][grad.scalar_type()].push_back(grad);
  }
  for (auto& [device, per_dtype] : grads) {
    Tensor found_inf = full({}, 0.0, TensorOptions(kFloat32).device(Device(device)));
    const Tensor device_inv_scale = inv_scale.to(Device(device));
    for (auto& [dtype, list] : per_dtype)
      _amp_foreach_non_finite_check_and_unscale_(list, found_inf, device_inv_scale);
    state.found_inf_per_device[device] = found_inf;
  }
  state.stage = Stage::Unscaled;
}

// Unscales (unless unscale_ already did), then steps the optimizer only if no gradient was
// infinite or NaN: reading found_inf waits for the device.
void GradScaler::step(optim::Optimizer& optimizer) {
  if (!enabled_) return optimizer.step();
  check_scale_growth_tracker("step");
  if (per_optimizer_[&optimizer].stage == Stage::Stepped)
    throw Error("step() has already been called since the last update().");
  if (per_optimizer_[&optimizer].stage == Stage::Ready) unscale_(optimizer);
  OptimizerState& state = per_optimizer_[&optimizer];
  if (state.found_inf_per_device.empty())
    throw AssertionError("No inf checks were recorded for this optimizer.");
  bool found_inf = false;
  for (const auto& [device, flag] : state.found_inf_per_device) {
    const double value = flag.item<double>();  // waits for the device, as Python's item() does
    // A what-if run's gradients have no values (sim::ShapeOnlyGuard): its steps are taken as
    // the healthy ones nearly every step is, so that the optimizer's work is timed too.
    found_inf = found_inf || (!sim::is_shape_only(flag) && value != 0);
  }
  if (!found_inf) optimizer.step();
  state.stage = Stage::Stepped;
}

// The scale for the next iteration, from every optimizer's found_inf (or `new_scale`).
void GradScaler::update(std::optional<double> new_scale) {
  if (!enabled_) return;
  check_scale_growth_tracker("update");
  NoGradGuard no_grad;
  if (new_scale) {
    scale_.fill_(*new_scale);
  } else {
    Tensor combined;
    for (const auto& [optimizer, state] : per_optimizer_) {
      for (const auto& [device, found_inf] : state.found_inf_per_device) {
        const Tensor here = found_inf.to(scale_.device());
        combined = combined.defined() ? combined + here : here;
      }
    }
    if (!combined.defined()) throw AssertionError("No inf checks were recorded prior to update.");
    _amp_update_scale_(scale_, growth_tracker_, combined, growth_factor_, backoff_factor_,
                       growth_interval_);
  }
  per_optimizer_.clear();
}

double GradScaler::get_scale() {
  if (!enabled_) return 1.0;
  return scale_.defined() ? scale_.item<double>() : init_scale_;
}

}  // namespace engine::py::torch::amp
