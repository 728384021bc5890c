// Note [Autocast's op lists]
// PyTorch 2.9 registers each operation's cast policy per device in
// aten/src/ATen/autocast_mode.cpp (TORCH_LIBRARY_IMPL(aten, AutocastMPS, m) and AutocastCPU);
// an operation on neither list runs in its inputs' dtypes. For the operations the engine has:
//   mps:  lower_precision_fp  matmul, mm, bmm, linear, conv2d (convolution),
//                             scaled_dot_product_attention (since 2.6: pytorch/pytorch#141776,
//                             which fixed #141774, an error on mixed query and value dtypes)
//         fp32                softmax, log_softmax, layer_norm, batch_norm, nll_loss, sum, pow
//   cpu:  lower_precision_fp  matmul, mm, bmm, linear, conv2d, scaled_dot_product_attention
//         fp32                nll_loss, cross_entropy_loss
//         promote             cat
// So on mps cross_entropy (not listed) runs log_softmax and nll_loss in float32 by theirs, and
// softmax or layer norm of a float16 activation return float32; on the cpu softmax, layer_norm
// and batch_norm keep a bfloat16 input's dtype. mps's lists cannot be captured without a Mac: they
// are read from the source; the cpu's are checked against PyTorch
// (tests/engine/pytorch/precision_parity_test.cpp).

#include "amp/policy.h"

#include "engine/autocast.h"
#include "engine/type_promotion.h"
#include "machine/process.h"

namespace engine::detail {
namespace {

enum class CastPolicy { None, LowerPrecisionFp, Fp32, Promote };

CastPolicy policy(DeviceType device, AutocastOp op) {
  switch (op) {
    case AutocastOp::Matmul:
    case AutocastOp::Linear:
    case AutocastOp::Conv2d:
    case AutocastOp::ScaledDotProductAttention:
      return CastPolicy::LowerPrecisionFp;
    case AutocastOp::NllLoss:
      return CastPolicy::Fp32;
    case AutocastOp::CrossEntropy:
      return device == DeviceType::CPU ? CastPolicy::Fp32 : CastPolicy::None;
    case AutocastOp::Softmax:
    case AutocastOp::LogSoftmax:
    case AutocastOp::LayerNorm:
    case AutocastOp::BatchNorm:
    case AutocastOp::Sum:
    case AutocastOp::Pow:
      return device == DeviceType::MPS ? CastPolicy::Fp32 : CastPolicy::None;
    case AutocastOp::Cat:
      return device == DeviceType::CPU ? CastPolicy::Promote : CastPolicy::None;
  }
  return CastPolicy::None;
}

// is_eligible: a floating-point tensor on the autocast device, float64 left alone.
bool eligible(const Tensor& t, DeviceType device) {
  return t.defined() && t.is_floating_point() && t.device().type() == device &&
         t.scalar_type() != ScalarType::Double;
}

// cached_cast: a float32 weight (a leaf that requires grad) cast to the lower precision is
// cast once per autocast region and reused.
Tensor cached_cast(ScalarType to, const Tensor& t, DeviceType device) {
  if (!eligible(t, device) || t.scalar_type() == to) return t;
  AutocastState& state = process().autocast;
  const bool cacheable = to == autocast::get_autocast_dtype(device) &&
                         t.scalar_type() == ScalarType::Float && t.requires_grad() && t.is_leaf() &&
                         state.cache_enabled;
  if (!cacheable) return t.to(to);
  for (const auto& [source, cast] : state.cache) {
    if (source.is_same(t)) return cast;
  }
  const Tensor cast = t.to(to);
  state.cache.emplace_back(t, cast);
  return cast;
}

// promote_type: float32 if any eligible input is float32, else the lower precision.
ScalarType widest(const std::vector<Tensor>& inputs, DeviceType device) {
  ScalarType current = autocast::get_autocast_dtype(device);
  for (const Tensor& t : inputs) {
    if (eligible(t, device) && t.scalar_type() == ScalarType::Float) current = ScalarType::Float;
  }
  return current;
}

}  // namespace

std::optional<Autocasted> autocast_inputs(AutocastOp op, const std::vector<Tensor>& inputs) {
  const Tensor* first = nullptr;
  for (const Tensor& t : inputs) {
    if (t.defined()) {
      first = &t;
      break;
    }
  }
  if (first == nullptr) return std::nullopt;
  const DeviceType device = first->device().type();
  const CastPolicy cast = policy(device, op);
  if (cast == CastPolicy::None || !autocast::is_autocast_enabled(device)) return std::nullopt;
  const ScalarType to = cast == CastPolicy::Fp32      ? ScalarType::Float
                        : cast == CastPolicy::Promote ? widest(inputs, device)
                                                      : autocast::get_autocast_dtype(device);
  Autocasted result{device, {}};
  for (const Tensor& t : inputs) result.inputs.push_back(cached_cast(to, t, device));
  return result;
}

AutocastExclusion::AutocastExclusion(DeviceType device)
    : device_(device), previous_(autocast::is_autocast_enabled(device)) {
  autocast::set_autocast_enabled(device, false);
}

AutocastExclusion::~AutocastExclusion() { autocast::set_autocast_enabled(device_, previous_); }

}  // namespace engine::detail
