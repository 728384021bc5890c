#pragma once
// Reverse-mode autograd as PyTorch runs it (torch/csrc/autograd): every differentiable
// operation on a tensor that requires grad records a Node; backward() walks the nodes from the
// loss in reverse and accumulates gradients into the leaves' .grad. As in PyTorch, the saved
// values are freed by backward(), so a second backward() through the same graph fails.
// Simplification: in-place changes to saved tensors are not detected.

#include <functional>
#include <memory>
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

class Node;

// Where the gradient of one input of a node goes, as PyTorch's Edge says: to the node that
// made the input, or, for a leaf that requires grad, into the leaf's .grad (the leaf is held,
// as AccumulateGrad holds it). An edge never holds a non-leaf input: its values stay alive only
// if the backward function saved them, as with PyTorch's SavedVariables, so the memory a graph
// keeps is what its operations save.
struct Edge {
  std::shared_ptr<Node> grad_fn;            // the input's node, if it has one
  Tensor leaf;                              // the input itself, if it is a leaf that requires grad
  Device device = Device(DeviceType::CPU);  // the input's: its gradient is returned there
  bool leads_anywhere() const noexcept { return grad_fn != nullptr || leaf.defined(); }
};

// One recorded operation: where its inputs' gradients go, and the function that turns the
// gradient of its output into gradients of those inputs.
class Node {
 public:
  using Backward = std::function<std::vector<Tensor>(const Tensor& grad)>;

  // `saves_tensors`: whether `backward` holds tensors (PyTorch's SavedVariables) rather than
  // only sizes and scalars. `eager`: whether autograd's engine runs it as a node of its own
  // (false inside a compiled graph, whose backward PyTorch runs as one node).
  Node(std::string name, std::vector<Edge> edges, Backward backward, bool saves_tensors, bool eager)
      : name_(std::move(name)),
        edges_(std::move(edges)),
        backward_(std::move(backward)),
        saves_tensors_(saves_tensors),
        eager_(eager) {}
  // Frees the nodes only this one keeps alive in a loop, not each inside the last's destructor,
  // as PyTorch's deleteNode does (torch/csrc/autograd/function.cpp): a graph as deep as a model
  // of thousands of layers would otherwise overflow the stack.
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // PyTorch's name for the node, e.g. "AddmmBackward0".
  const std::string& name() const noexcept { return name_; }
  // One per input, in the order of the gradients the backward function returns.
  const std::vector<Edge>& edges() const noexcept { return edges_; }
  bool released() const noexcept { return !backward_; }
  bool eager() const noexcept { return eager_; }

  std::vector<Tensor> apply(const Tensor& grad) const { return backward_(grad); }
  // Frees the saved tensors, as backward() does unless told to retain the graph; a node that
  // saved none keeps working, so a second backward through only such nodes succeeds.
  void release() {
    if (!saves_tensors_) return;
    backward_ = nullptr;
    edges_.clear();
  }

 private:
  // PyTorch's gatherFunctions: the saved tensors freed, and the nodes below this one that
  // nothing else holds moved onto `stack`.
  void release_into(std::vector<std::shared_ptr<Node>>& stack);

  std::string name_;
  std::vector<Edge> edges_;
  Backward backward_;
  bool saves_tensors_;
  bool eager_;
};

}  // namespace autograd
}  // namespace engine
