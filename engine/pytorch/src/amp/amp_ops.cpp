// The two operations GradScaler runs on the device: _amp_foreach_non_finite_check_and_unscale_
// and _amp_update_scale_ (aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp on the cpu; Metal
// kernels on mps, aten/src/ATen/native/mps/operations/Amp.mm, with the same arithmetic). Both
// leave their results on the device: nothing here waits for it.

#include <cmath>
#include <string>

#include "engine/amp.h"
#include "engine/errors.h"
#include "mps/stream.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine {
namespace {

// The arguments' checks, in Amp.mm's (and the cpu kernel's) order and words; the kernel is the
// scaled gradients' device's.
void check_scalar_arguments(const Tensor& first, const Tensor& found_inf, const Tensor& inv_scale) {
  const bool mps = first.is_mps();
  const std::string device = mps ? "MPS" : "CPU";
  if (inv_scale.is_mps() != mps) throw Error("inv_scale must be a " + device + " tensor.");
  if (found_inf.is_mps() != mps) throw Error("found_inf must be a " + device + " tensor.");
  if (inv_scale.numel() != 1) throw Error("inv_scale must be a 1-element tensor.");
  if (found_inf.numel() != 1) throw Error("found_inf must be a 1-element tensor.");
  if (inv_scale.scalar_type() != ScalarType::Float)
    throw Error("inv_scale must be a float tensor.");
  if (found_inf.scalar_type() != ScalarType::Float)
    throw Error("found_inf must be a float tensor.");
}

}  // namespace

void _amp_foreach_non_finite_check_and_unscale_(std::vector<Tensor>& self, Tensor& found_inf,
                                                const Tensor& inv_scale) {
  if (self.empty()) return;
  check_scalar_arguments(self.front(), found_inf, inv_scale);
  double bytes = 0;
  for (const Tensor& t : self) bytes += 2 * detail::nbytes(t);
  detail::launch({.name = "aten::_amp_foreach_non_finite_check_and_unscale_",
                  .bytes = bytes,
                  .elements = bytes / 8,
                  .dtype = self.front().scalar_type()},
                 inv_scale.device());
  if (!detail::have_values({&found_inf, &inv_scale})) return;
  const float inv = inv_scale.impl().data<float>()[0];
  for (const Tensor& t : self) {
    if (!t.impl().has_values()) continue;
    const detail::ValuesAs<float> values(t);
    detail::ResultAs<float> unscaled(t);
    for (std::int64_t i = 0; i < t.numel(); ++i) {
      const float v = values.data()[i];
      if (!std::isfinite(v)) found_inf.impl().data<float>()[0] = 1.0f;
      unscaled.data()[i] = inv == 1.0f ? v : v * inv;
    }
    unscaled.store();
  }
}

Tensor& _amp_update_scale_(Tensor& self, Tensor& growth_tracker, const Tensor& found_inf,
                           double scale_growth_factor, double scale_backoff_factor,
                           std::int64_t growth_interval) {
  detail::launch({.name = "aten::_amp_update_scale_", .bytes = 12, .elements = 1}, self.device());
  if (!detail::have_values({&self, &growth_tracker, &found_inf})) return self;
  float& scale = self.impl().data<float>()[0];
  std::int32_t& tracker = growth_tracker.impl().data<std::int32_t>()[0];
  if (found_inf.impl().data<float>()[0] != 0) {
    scale = static_cast<float>(scale * scale_backoff_factor);
    tracker = 0;
    return self;
  }
  const std::int64_t successful = tracker + 1;
  if (successful == growth_interval) {
    const auto grown = static_cast<float>(scale * scale_growth_factor);
    if (std::isfinite(grown)) scale = grown;  // never past float32's range, to infinity
    tracker = 0;
  } else {
    tracker = static_cast<std::int32_t>(successful);
  }
  return self;
}

}  // namespace engine
