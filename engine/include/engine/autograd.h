#pragma once
// Reverse-mode autograd as PyTorch runs it (torch/csrc/autograd): every differentiable
// operation on a tensor that requires grad records a Node; backward() walks the nodes from the
// loss in reverse and accumulates gradients into the leaves' .grad. As in PyTorch, the saved
// values are freed by backward(), so a second backward() through the same graph fails.
// Simplification: in-place changes to saved tensors are not detected.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/tensor.h"

namespace engine {

// torch::NoGradGuard: while one is alive, operations record nothing (what optimizers and
// evaluation loops use).
class NoGradGuard {
 public:
  NoGradGuard();
  ~NoGradGuard();
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool previous_;
};

// c10::GradMode
struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

namespace autograd {

// One recorded operation: its inputs, and the function that turns the gradient of its output
// into gradients of those inputs.
class Node {
 public:
  using Backward = std::function<std::vector<Tensor>(const Tensor& grad)>;

  Node(std::string name, std::vector<Tensor> inputs, Backward backward)
      : name_(std::move(name)), inputs_(std::move(inputs)), backward_(std::move(backward)) {}

  // PyTorch's name for the node, e.g. "AddmmBackward0".
  const std::string& name() const noexcept { return name_; }
  const std::vector<Tensor>& inputs() const noexcept { return inputs_; }
  bool released() const noexcept { return !backward_; }

  std::vector<Tensor> apply(const Tensor& grad) const { return backward_(grad); }
  // Frees the saved values, as backward() does unless told to retain the graph.
  void release() {
    backward_ = nullptr;
    inputs_.clear();
  }

 private:
  std::string name_;
  std::vector<Tensor> inputs_;
  Backward backward_;
};

}  // namespace autograd
}  // namespace engine
