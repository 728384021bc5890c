// torch.nn.functional.nll_loss and cross_entropy for class-index targets, mean reduction
// (aten/src/ATen/native/LossNLL.cpp), with PyTorch's messages for bad targets.

#include <string>

#include "amp/policy.h"
#include "autograd/record.h"
#include "engine/errors.h"
#include "engine/nn/functional.h"
#include "engine/ops.h"
#include "mps/stream.h"
#include "tensor/device_checks.h"
#include "tensor/opmath.h"
#include "tensor/tensor_impl.h"

namespace engine::nn::functional {
namespace {

constexpr std::int64_t kIgnoreIndex = -100;

// What fails before a kernel checks devices: the engine's limits, the target's dtype, and
// nll_loss_nd's batch sizes.
void check_loss_arguments(const Tensor& input, const Tensor& target) {
  detail::dispatch_floating(input.scalar_type(), "nll_loss_out_frame",
                            detail::Float64::NotImplemented, [](auto) {});
  if (input.dim() != 2) {
    throw Error("the course engine computes nll_loss for (N, C) inputs; got " +
                std::to_string(input.dim()) + "-D");
  }
  if (target.scalar_type() != ScalarType::Long) {
    throw Error("expected scalar type Long but found " +
                std::string(scalar_type_name(target.scalar_type())));
  }
  // nll_loss_nd compares the batch sizes first; nll_loss_forward then wants one label per row.
  const std::int64_t target_batch =
      target.dim() == 0 ? 0 : target.size(0);  // a 0-D target counts as none
  if (target_batch != input.size(0)) {
    throw ValueError("Expected input batch_size (" + std::to_string(input.size(0)) +
                     ") to match target batch_size (" + std::to_string(target_batch) + ").");
  }
  if (target.dim() > 1) throw Error("0D or 1D target tensor expected, multi-target not supported");
}

void check_target_range(const Tensor& input, const Tensor& target) {
  if (!detail::have_values({&target})) return;
  const std::int64_t classes = input.size(1);
  const std::int64_t* labels = target.impl().data<std::int64_t>();
  for (std::int64_t i = 0; i < target.numel(); ++i) {
    if (labels[i] != kIgnoreIndex && (labels[i] < 0 || labels[i] >= classes)) {
      throw IndexError("Target " + std::to_string(labels[i]) + " is out of bounds.");
    }
  }
}

}  // namespace

Tensor nll_loss(const Tensor& input, const Tensor& target) {
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::NllLoss, {input, target})) {
    const detail::AutocastExclusion exclusion(cast->device);
    return nll_loss(cast->inputs[0], cast->inputs[1]);
  }
  check_loss_arguments(input, target);
  // The MPS kernel of this period builds an MPSGraph (LossOps.mm, nllnd_loss_forward_impl), whose
  // placeholders take the input, then the target; later releases moved it to a Metal kernel.
  if (detail::any_on_mps({&input, &target})) detail::check_placeholder_storage({&input, &target});
  check_target_range(input, target);
  const Device device = input.device();
  const bool values = detail::have_values({&input, &target});
  Tensor loss = detail::allocate({}, input.scalar_type(), device, values);
  detail::launch({.name = "aten::nll_loss_forward",
                  .kind = detail::OpKind::Gather,
                  .bytes = detail::nbytes(target) * 2,
                  .dtype = input.scalar_type()},
                 device);
  const std::int64_t classes = input.size(1);
  std::vector<std::int64_t> labels;
  std::int64_t counted = 0;
  if (values) {
    const std::int64_t* t = target.impl().data<std::int64_t>();
    labels.assign(t, t + target.numel());
    const detail::ValuesAs<float> logp(input);
    double total = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (labels[i] == kIgnoreIndex) continue;
      total -= logp.data()[static_cast<std::int64_t>(i) * classes + labels[i]];
      ++counted;
    }
    detail::ResultAs<float> result(loss);
    result.data()[0] =
        static_cast<float>(total / static_cast<double>(counted));  // 0/0 = nan, as PyTorch
    result.store();
  }
  if (!detail::should_record({&input})) return loss;
  detail::record(loss, "NllLossBackward0", {input, target},
                 [input, labels, classes, counted](const Tensor& g) {
                   Tensor grad = zeros_like(input);
                   detail::launch({.name = "aten::nll_loss_backward",
                                   .kind = detail::OpKind::Gather,
                                   .bytes = detail::nbytes(input)},
                                  g.device());
                   if (detail::have_values({&g, &grad})) {
                     const float scale =
                         -detail::ValuesAs<float>(g).data()[0] / static_cast<float>(counted);
                     detail::ResultAs<float> out(grad);
                     for (std::size_t i = 0; i < labels.size(); ++i) {
                       if (labels[i] != kIgnoreIndex)
                         out.data()[static_cast<std::int64_t>(i) * classes + labels[i]] = scale;
                     }
                     out.store();
                   }
                   return std::vector<Tensor>{grad, Tensor()};
                 });
  return loss;
}

Tensor cross_entropy(const Tensor& input, const Tensor& target) {
  if (auto cast = detail::autocast_inputs(detail::AutocastOp::CrossEntropy, {input, target})) {
    const detail::AutocastExclusion exclusion(cast->device);
    return cross_entropy(cast->inputs[0], cast->inputs[1]);
  }
  return nll_loss(engine::log_softmax(input, 1), target);
}

}  // namespace engine::nn::functional
