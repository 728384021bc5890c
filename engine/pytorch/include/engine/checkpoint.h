#pragma once
// Python's torch.utils.checkpoint.checkpoint (torch/utils/checkpoint.py), which LibTorch does
// not have: py::torch::utils::checkpoint::checkpoint. It runs `function` on `args` without
// recording its graph, so the activations inside are freed as soon as they are used instead of
// being kept for the backward pass; the backward pass runs `function` again, with its graph,
// and backpropagates through that. Memory goes down by the region's activations, and the step
// gets longer by one more forward pass of the region.
// use_reentrant has no default here: PyTorch warns when it is left out and asks for it to be
// passed. Both variants recompute the same way in the engine; they differ, as in PyTorch, when
// no input requires grad: the reentrant one then warns and records nothing, so the parameters
// inside get no gradient, while the other still backpropagates into them.
// Simplification: in PyTorch the non-reentrant variant keeps the region's own nodes and
// recomputes their saved tensors when backward first needs one; the engine records one node
// for the region either way, which recomputes the whole region at once: the same extra work
// and the same memory at the step's peak.

#include <functional>
#include <vector>

#include "engine/tensor.h"

namespace engine::py::torch::utils::checkpoint {

Tensor checkpoint(const std::function<Tensor(const std::vector<Tensor>&)>& function,
                  const std::vector<Tensor>& args, bool use_reentrant);

}  // namespace engine::py::torch::utils::checkpoint
