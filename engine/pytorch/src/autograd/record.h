#pragma once
// Internal: how operations take part in autograd.

#include <initializer_list>
#include <string>
#include <vector>

#include "engine/autograd.h"
#include "engine/tensor.h"

namespace engine::detail {

// Whether an operation on these inputs must record a node: grad mode is on and one of them
// requires grad.
bool should_record(std::initializer_list<const Tensor*> inputs);

// Whether a node's backward formula saves tensors (derivatives.yaml), or only sizes and
// scalars: backward frees saved tensors, so only the first kind refuses a second backward.
enum class Saves { Tensors, NoTensors };

// Makes `result` the output of a new node named `name` (PyTorch's name, "MulBackward0").
// `backward` returns one gradient per input, undefined where none flows. The node keeps only
// edges to the inputs; `backward` must capture what it needs, and should capture no more than
// PyTorch's backward formula saves (derivatives.yaml), since that is the memory a graph holds.
void record(const Tensor& result, std::string name, const std::vector<Tensor>& inputs,
            autograd::Node::Backward backward, Saves saves = Saves::Tensors);

// Sums `grad` down to `shape`, undoing broadcasting: the gradient of an operand that was
// broadcast is the sum over the dimensions it was broadcast along.
Tensor sum_to(const Tensor& grad, IntArrayRef shape);

// Runs backward from a one-element tensor (Tensor::backward).
void run_backward(const Tensor& root);
// Runs backward from `root` with `gradient` as its gradient (torch.autograd.backward(root,
// gradient)), as a checkpointed region's backward does with the gradient that reached its
// output; an undefined `gradient` is ones, as for backward().
void run_backward(const Tensor& root, const Tensor& gradient);

}  // namespace engine::detail
