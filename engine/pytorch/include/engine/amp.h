#pragma once
// Loss scaling for float16 training: PyTorch's two native operations, with LibTorch's names
// (aten/src/ATen/native/AmpKernels.cpp; on mps Metal kernels since 2.8, pytorch/pytorch#150255,
// aten/src/ATen/native/mps/operations/Amp.mm), and Python's torch.amp.GradScaler
// (torch/amp/grad_scaler.py), which LibTorch does not have: py::torch::amp::GradScaler.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/optim/optimizer.h"
#include "engine/tensor.h"

namespace engine {

// Multiplies every tensor by inv_scale (a 1-element float32 tensor) and sets found_inf (likewise)
// to 1 if any element is infinite or NaN.
void _amp_foreach_non_finite_check_and_unscale_(std::vector<Tensor>& self, Tensor& found_inf,
                                                const Tensor& inv_scale);
// GradScaler's update: after a found_inf, the scale times scale_backoff_factor and the tracker
// back to 0; otherwise the tracker counts a good step, and at growth_interval of them the scale
// grows by scale_growth_factor (unless that overflows float32) and the tracker restarts.
Tensor& _amp_update_scale_(Tensor& self, Tensor& growth_tracker, const Tensor& found_inf,
                           double scale_growth_factor, double scale_backoff_factor,
                           std::int64_t growth_interval);

}  // namespace engine

namespace engine::py::torch::amp {

// torch.amp.GradScaler: scale(loss) multiplies the loss by a large factor so that float16
// gradients do not underflow to zero; step(optimizer) divides the gradients back (unscale_) and
// skips the optimizer's step when any is infinite or NaN, which reading found_inf (a sync point)
// decides; update() halves the scale after such a step and doubles it after growth_interval good
// ones. The device defaults to "cuda", as Python's does: with no CUDA it warns and disables
// itself, and every method then does nothing but step the optimizer.
class GradScaler {
 public:
  explicit GradScaler(std::string_view device = "cuda", double init_scale = 65536.0,
                      double growth_factor = 2.0, double backoff_factor = 0.5,
                      std::int64_t growth_interval = 2000, bool enabled = true);

  Tensor scale(const Tensor& outputs);
  void unscale_(const optim::Optimizer& optimizer);
  void step(optim::Optimizer& optimizer);
  void update(std::optional<double> new_scale = std::nullopt);
  // The scale as a Python float (reading it waits for the device), or 1.0 when disabled.
  double get_scale();
  double get_growth_factor() const { return growth_factor_; }
  double get_backoff_factor() const { return backoff_factor_; }
  std::int64_t get_growth_interval() const { return growth_interval_; }
  bool is_enabled() const { return enabled_; }

 private:
  enum class Stage { Ready, Unscaled, Stepped };
  struct OptimizerState {
    Stage stage = Stage::Ready;
    std::map<std::string, Tensor> found_inf_per_device;
  };
  void check_scale_growth_tracker(const std::string& function) const;

  bool enabled_;
  double init_scale_, growth_factor_, backoff_factor_;
  std::int64_t growth_interval_;
  Tensor scale_, growth_tracker_;  // made on the first scale(), on the loss's device
  std::map<const optim::Optimizer*, OptimizerState> per_optimizer_;
};

}  // namespace engine::py::torch::amp
